package flaky

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// lockRace is a run of TestX whose worker goroutine and root goroutine
// lock one mutex (object 7): the worker at the site of block then (line
// 12), the root at the site of block a (line 17), the worker first when
// workerFirst. Another mutex (object 9) is locked by both in the same
// order in every run.
func (x *twoBranches) lockRace(workerFirst, fail bool) *memTrace {
	lock := func(site int, obj uint64, end int64) trace.Event {
		return trace.Event{Kind: trace.EvSync, Block: uint32(site), Site: uint32(site), Op: trace.OpLock, Object: obj, End: end}
	}
	w, r := int64(100), int64(200)
	if !workerFirst {
		w, r = 200, 100
	}
	result := trace.TestPass
	if fail {
		result = trace.TestFail
	}
	m := &memTrace{g: x.g}
	m.add(trace.GoroutineInfo{ID: 2, Test: "TestX", Result: result, Ended: true, Path: "TestX"},
		lock(x.a, 7, r), lock(x.b, 9, 300))
	m.add(trace.GoroutineInfo{ID: 3, Parent: 2, Ended: true, Path: "TestX > worker"},
		lock(x.then, 7, w), lock(x.els, 9, 50))
	return m
}

// TestOrderings: the order of the two locks of object 7 separates failing
// runs (worker first) from passing runs, and is named with both sites and
// goroutines; the locks of object 9, in one order always, are not.
func TestOrderings(t *testing.T) {
	x := newTwoBranches(t)
	fails := views(t, "TestX", x.lockRace(true, true), x.lockRace(true, true), x.lockRace(false, true))
	passes := views(t, "TestX", x.lockRace(false, false), x.lockRace(false, false), x.lockRace(false, false))
	c := newComparer("TestX")
	got, err := c.orderings(fails, passes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("orderings %+v, want the locks of object 7 alone", got)
	}
	o := got[0]
	if o.First.Pos != "m/x_test.go:12" || o.First.Goroutine != "TestX > worker" || o.Second.Pos != "m/x_test.go:17" || o.Second.Goroutine != "TestX" {
		t.Errorf("ordering %+v, want the worker's lock at line 12 before the test's at line 17", o)
	}
	if o.Failing != [2]int{2, 1} || o.Passing != [2]int{0, 3} || o.Score < 0.66 || o.Score > 0.67 {
		t.Errorf("failing %v, passing %v, score %v; want [2 1], [0 3], 2/3", o.Failing, o.Passing, o.Score)
	}
	want := "in 2 of 3 failing runs TestX's lock at m/x_test.go:12 in TestX > worker came before TestX's lock at :17 in TestX; in 3 of 3 passing runs after"
	if s := o.String(); s != want {
		t.Errorf("text\n%s\nwant\n%s", s, want)
	}
	rep, err := Explain("TestX", fails, passes)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Orderings) != 1 || !strings.Contains(rep.Orderings[0].String(), "worker came before") {
		t.Errorf("Explain's orderings %+v", rep.Orderings)
	}
}

func TestShortFunc(t *testing.T) {
	for in, want := range map[string]string{
		"(*golang.org/x/sync/singleflight.Group).doCall": "(*Group).doCall",
		"example.com/m.TestX":                            "TestX",
		"example.com/m.TestX$1":                          "TestX$1",
		"main.main":                                      "main",
	} {
		if got := shortFunc(in); got != want {
			t.Errorf("shortFunc(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldAlike: orderings between workers one go statement started, which
// differ only in which worker came first, fold into the best of them, which
// counts the others; an ordering of a worker against the test's goroutine
// folds only with the same order against another worker, not with the
// opposite one, and another line stays apart.
func TestFoldAlike(t *testing.T) {
	worker := func(n int) string { return fmt.Sprintf("TestX > go pool.go:30#%d", n) }
	lock := func(g, pos string) OpRef { return OpRef{Op: "lock", Pos: pos, Goroutine: g, N: 1} }
	os := []Ordering{
		{First: lock(worker(12), "pool.go:41"), Second: lock(worker(7), "pool.go:41"), Score: 0.9},
		{First: lock(worker(3), "pool.go:41"), Second: lock(worker(9), "pool.go:41"), Score: 0.8},
		{First: lock("TestX", "pool.go:60"), Second: lock(worker(2), "pool.go:41"), Score: 0.7},
		{First: lock(worker(4), "pool.go:41"), Second: lock("TestX", "pool.go:60"), Score: 0.6},
		{First: lock("TestX", "pool.go:60"), Second: lock(worker(5), "pool.go:41"), Score: 0.6},
		{First: lock(worker(1), "pool.go:50"), Second: lock(worker(6), "pool.go:41"), Score: 0.5},
	}
	got := foldAlike(os)
	var folded []int
	for _, o := range got {
		folded = append(folded, o.Folded)
	}
	if len(got) != 4 || got[0].Score != 0.9 || got[1].Score != 0.7 || got[2].Score != 0.6 || got[3].Score != 0.5 {
		t.Fatalf("folded to %v, want the orders of scores 0.9, 0.7, 0.6 and 0.5", got)
	}
	if !slices.Equal(folded, []int{1, 1, 0, 0}) {
		t.Errorf("folded counts %v, want [1 1 0 0]", folded)
	}
	if s := got[0].String(); !strings.Contains(s, "and 1 more such orders of goroutines started alike") {
		t.Errorf("the folded order reads %q, without the orders folded into it", s)
	}
}
