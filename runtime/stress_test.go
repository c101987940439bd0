package runtime

import (
	"sync"
	"testing"
)

// TestStress spawns 10,000 goroutines with known work (goroutine i runs
// i%50 loop iterations) and checks that no event is lost.
func TestStress(t *testing.T) {
	const n = 10000
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var gone sync.WaitGroup
	sem := make(chan struct{}, 256) // the race detector allows 8128 live goroutines
	for i := range n {
		g.B(bSpawn)
		c := g.Spawn(bSpawn)
		sem <- struct{}{}
		gone.Add(1)
		go func() {
			defer func() { <-sem; gone.Done() }()
			c.Start()
			defer c.Done()
			w := Enter(bWorker)
			defer w.Exit(bWorker)
			for range i % 50 {
				w.B(bWorkerL)
			}
		}()
	}
	gone.Wait()
	g.B(bDone)
	g.Exit(bMain)

	r, gs := readTrace(t, path)
	if len(gs) != n+1 || r.Truncated() {
		t.Fatalf("%d goroutines (truncated %v), want %d", len(gs), r.Truncated(), n+1)
	}
	if b := gs["main"].info.Blocks; b != n+2 {
		t.Errorf("main: %d blocks, want %d", b, n+2)
	}
	var total uint64
	for i := range n {
		p := "main/worker@main.go:7#" + itoa(uint64(i+1))
		w, ok := gs[p]
		if !ok {
			t.Fatalf("no goroutine %s", p)
		}
		want := uint64(1 + i%50)
		if w.info.Blocks != want || !w.info.Ended {
			t.Fatalf("%s: %d blocks (ended %v), want %d", p, w.info.Blocks, w.info.Ended, want)
		}
		total += w.info.Blocks
	}
	if want := uint64(n + n/50*(49*50/2)); total != want {
		t.Errorf("%d worker blocks in all, want %d", total, want)
	}
}
