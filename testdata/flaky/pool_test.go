package flaky

import "testing"

// TestPoolNilTask fills a pool of 5 and expects a sixth task refused.
// But it fills the first four places with nil tasks, taking them for
// tasks that do nothing: a nil task makes its worker exit, and a
// worker that has exited by the last Submit has freed its place, so the
// last task is taken. In a plain run the workers started mostly wait in
// the run queue of the test's processor until the test ends; when another
// processor takes one first, or a delay at a sync operation lets it run,
// it exits in time.
func TestPoolNilTask(t *testing.T) {
	p := NewPool(5)
	defer p.Release()
	for range 4 {
		if err := p.Submit(nil); err != nil {
			t.Fatalf("an empty pool refused a task: %v", err)
		}
	}
	block := make(chan struct{})
	defer close(block)
	if err := p.Submit(func() { <-block }); err != nil {
		t.Fatalf("the fifth task was refused: %v", err)
	}
	if err := p.Submit(func() {}); err != ErrPoolFull {
		t.Fatal("a pool of 5 took a sixth task: a worker given a nil task had exited")
	}
}
