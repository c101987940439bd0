package main

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/flaky"
)

// TestWriteTestReport prints a report with a test failing two ways and
// one failing in every run: each way with its separators, orderings and
// rerun (its own perturbed run, with the strength when not the default),
// the failure rates by schedule, the messages of the test that always
// failed, and a wait the failing runs hung in with what ended it in
// passing runs.
func TestWriteTestReport(t *testing.T) {
	// The rerun line carries GOFLAGS when it is set (TestRerunLine); CI
	// sets it.
	t.Setenv("GOFLAGS", "")
	sel := func(pos string) []flaky.Separator {
		return []flaky.Separator{{Pos: pos, Kind: "select", Pairs: [3]int{4, 0, 0}, Score: 1}}
	}
	order := flaky.Ordering{
		First:   flaky.OpRef{Op: "lock", Pos: "c.go:35", Func: "example.com/m.(*Clock).Advance", Goroutine: "TestTicks", N: 1},
		Second:  flaky.OpRef{Op: "lock", Pos: "c.go:25", Func: "example.com/m.(*Clock).After", Goroutine: "TestTicks > ticker", N: 2},
		Failing: [2]int{3, 0}, Passing: [2]int{0, 2}, Score: 1,
	}
	rep0 := &testReport{Package: "./m", Seeds: []int64{1, 2, 3, 4, 5}, Strengths: []int{0, 50, 12, 50, 0}}
	rep := &testReport{
		Package: "./m", Runs: 5, Seeds: []int64{1, 2, 3, 4, 5}, Perturbed: true,
		Strengths: []int{0, 50, 12, 50, 0},
		Died:      []diedRun{{Run: 3, Seed: 3, Strength: 12, Why: "panic: boom"}},
		Failed: []*failedTest{{Name: "TestAlways", Schedules: []flaky.Rate{{Strength: 0, Runs: 2, Failures: 2}, {Strength: 50, Runs: 3, Failures: 3}},
			Messages: []flaky.MessageCount{{Message: "a_test.go:9: Error Trace:\n\tError: boom", N: 5}, {Message: "a_test.go:3: long" + strings.Repeat("\nmore", 20), N: 1}}}},
		Flaky: []*flakyTest{{
			Name: "TestTicks", Runs: 5, Failures: 3,
			Schedules: []flaky.Rate{{Strength: 0, Runs: 2, Failures: 0}, {Strength: 12, Runs: 1, Failures: 1}, {Strength: 50, Runs: 2, Failures: 2}},
			Messages:  []flaky.MessageCount{{Message: "c_test.go:27: no first tick", N: 2}, {Message: "c_test.go:33: no second tick", N: 1}},
			Report: &flaky.Report{
				Modes: []*flaky.Mode{
					{Where: "c_test.go:27", Failures: 2, Runs: []int{2, 4}, Separators: sel("c_test.go:24"), Orderings: []flaky.Ordering{order}},
					{Where: "c_test.go:33", Failures: 1, Runs: []int{3}, Orderings: []flaky.Ordering{order},
						Separators: []flaky.Separator{{Pos: "c_test.go:30", Kind: "select", Pairs: [3]int{2, 0, 1}, Score: 0.5}}},
				},
				Separators: sel("c_test.go:24"),
				Hangs: []flaky.Hang{{Goroutine: "TestTicks", Pos: "c_test.go:40", Op: "wg.wait", Runs: 1, Of: 3, PassOf: 2,
					Released: &flaky.HangRelease{Goroutine: "TestTicks > ticker", Pos: "c.go:50", Op: "wg.done", Runs: 2, Waited: 2, PassMade: 1, Never: 1}}},
			},
			FailSeeds:  []int64{2, 3, 4},
			Kept:       "divergo-test/TestTicks",
			Rerun:      rep0.rerun("TestTicks", 1, "/k/fail-2.sched", "/k/rerun-2.dvt"),
			Diff:       "divergo diff divergo-test/TestTicks/fail-2.dvt divergo-test/TestTicks/pass-1.dvt",
			ModeReruns: []string{rep0.rerun("TestTicks", 1, "/k/fail-2.sched", "/k/rerun-2.dvt"), rep0.rerun("TestTicks", 2, "", "/k/rerun-3.dvt")},
			ModeDiffs:  []string{"divergo diff k/fail-2.dvt k/pass-1.dvt", "divergo diff k/fail-3.dvt k/pass-1.dvt"},
		}},
	}
	var b strings.Builder
	if err := writeTestReport(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"./m: 5 runs (2 unperturbed, 1 perturbed 12%, 2 perturbed 50%; seeds 1..5)",
		"run 3 (seed 3, perturbed 12%) ended early, the tests after it did not run: panic: boom",
		"TestAlways failed in every run (unperturbed 2 of 2, perturbed 50% 3 of 3), unperturbed too",
		"  5x a_test.go:9: Error Trace:\n      \tError: boom\n",
		"      more\n      ... and 9 more lines (-json has them)\n",
		"TestTicks: 3 of 5 runs failed (unperturbed 0 of 2, perturbed 12% 1 of 1, perturbed 50% 2 of 2), 2 ways",
		"failure 1 of 2, 2 runs: c_test.go:27\nwhat separates these failing runs",
		"1. c_test.go:24  select",
		// A statement and an order of the same score: the statement first.
		"1. c_test.go:24  select",
		"2. the order of two sync operations: in 3 of 3 failing runs (*Clock).Advance's lock at c.go:35 in TestTicks came before (*Clock).After's lock (its 2nd) at :25 in TestTicks > ticker; in 2 of 2 passing runs after",
		// An order that separates better than the statement comes first.
		"failure 2 of 2, 1 run: c_test.go:33\nwhat separates these failing runs from passing runs (0 fail-pass, 0 pass-pass, 0 fail-fail pairs compared):\n1. the order of two sync operations: in 3 of 3",
		"2. c_test.go:30  select  parted 2 of 0 fail-pass pairs",
		"rerun one: DIVERGO_PERTURB=2 DIVERGO_REPLAY=/k/fail-2.sched DIVERGO_TRACE=/k/rerun-2.dvt go test -count=1 -overlay=",
		"failure 2 of 2, 1 run: c_test.go:33",
		"rerun one: DIVERGO_PERTURB=3 DIVERGO_PERTURB_STRENGTH=12 DIVERGO_TRACE=/k/rerun-3.dvt go test",
		"'^TestTicks$' ./m\ndiff it against a passing run: divergo diff k/fail-3.dvt k/pass-1.dvt\n",
		"what separates all failing runs from passing runs",
		"blocked at the end of failing runs, and what ended that wait in passing runs:\n1. TestTicks blocked in wg.wait at c_test.go:40 (in 1 of 3 failing runs, 0 of 2 passing)\n   in passing runs TestTicks > ticker's wg.done at c.go:50 ended that wait (2 of 2 waits); made on its object by 1.0 goroutines a passing run, 0.0 a failing one; it never came in the failing runs\n",
		"a failing and a passing run are kept in divergo-test/TestTicks\nrerun one: DIVERGO_PERTURB=2 DIVERGO_REPLAY=/k/fail-2.sched",
		"diff it against a passing run: divergo diff divergo-test/TestTicks/fail-2.dvt divergo-test/TestTicks/pass-1.dvt\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestRerunLine checks the rerun's build flags and quoting: GOFLAGS, which
// go test reads from the environment divergo test ran in, is written out,
// and paths a shell would split are quoted.
func TestRerunLine(t *testing.T) {
	t.Setenv("GOFLAGS", "-tags=slow -race")
	rep := &testReport{Package: "./my pkg", Seeds: []int64{7}, Strengths: []int{flaky.Unperturbed}}
	got := rep.rerun("TestX/sub", 0, "/a b/fail-1.sched", "/k/rerun-1.dvt")
	for _, want := range []string{"GOFLAGS='-tags=slow -race' DIVERGO_REPLAY='/a b/fail-1.sched' DIVERGO_TRACE=/k/rerun-1.dvt go test -count=1 -overlay=", " -run '^TestX/sub$' './my pkg'"} {
		if !strings.Contains(got, want) {
			t.Errorf("rerun %q: no %q", got, want)
		}
	}
	if strings.Contains(got, "DIVERGO_PERTURB") {
		t.Errorf("rerun %q of an unperturbed run perturbs", got)
	}
	// The test binary's flags given after --, not those divergo test adds.
	rep.testArgs = userTestArgs([]string{"-test.run=^TestX", defaultTestTimeout, "-test.cpu=1", "-test.v=true"})
	if got := rep.rerun("TestX", 0, "", "/k/r.dvt"); !strings.HasSuffix(got, " './my pkg' -args -test.cpu=1") {
		t.Errorf("rerun %q: want the flags after -- passed on, and only those", got)
	}
	for name, want := range map[string]string{"TestX/a b": "TestX_a_b", "..": "_..", "TestY": "TestY"} {
		if got := fileName(name); got != want {
			t.Errorf("fileName(%q) = %q, want %q", name, got, want)
		}
	}
}
