package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// The change points whose outcome a replay of a run's sync order decides
// are the selects whose clause it forces: those whose sync events in the
// run name the clause taken (trace.Event.Case). A parting there between a
// run and its replay is a parting that did not happen, or a replay that
// did not hold. Not among them: a select the replay leaves to Go (a send
// whose value is a call, docs/INSTRUMENT.md), and a sync.Once, whose
// runner the schedule orders by its operation's end, after the function
// ran, so that a goroutine that waited for it replays first and runs it
// (testdata/once parts at the Do in every replay).

// replayMisses are programs whose replay this oracle finds wanting, with
// what it found: each is a fault of the replay to fix, not of diff, and is
// skipped with its reason so that the rest of the corpus stays checked.
var replayMisses = map[string]string{
	"stress": "its replay does not finish within two minutes on a loaded two-core machine",
	"closedchan": "every replay takes the default of its non-blocking selects (main.go:115, 133, 183, 203) " +
		"where the run received: the forced receive does not become ready within the replay's patience",
}

// TestReplayOracle is an oracle for false partings over the end-to-end
// corpus: every program is run once perturbed, then replayed (the run's
// sync order as DIVERGO_REPLAY) and the two diffed. The replay takes the
// same paths wherever the order decides, so diff must report no parting at
// a select or a Once; a replay that missed a turn (its patience ran out on
// a loaded machine) is tried again, up to three times. And no parting
// diff reports, there or anywhere, may read the same on both sides: words
// that say nothing (the same outcome twice) hide either a false parting or
// what the runs did.
func TestReplayOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs every end-to-end program")
	}
	dir := sharedCorpus(t).dir
	for _, p := range diffAllProgs() {
		t.Run(p.name, func(t *testing.T) {
			if why := replayMisses[p.name]; why != "" {
				t.Skip(why)
			}
			built := builtReal(t, p.name)
			if p.name == "doubleselect" {
				// The real programs' 500 iterations, not TestDiffAll's
				// 10,000 (for a long section list): each is a forced
				// select, and on a loaded machine one of 10,000 outwaiting
				// the replay's patience failed all three replays once.
				p.args = []string{"-n", "500"}
			}
			out := t.TempDir()
			run := filepath.Join(out, "run.dvt")
			recordSeed(t, built.dir, built.bin, p.args, run, 1, p.env)
			sched := filepath.Join(out, "run.sched")
			forced, err := scheduleOf(run, sched)
			if err != nil {
				t.Fatalf("the run's schedule: %v", err)
			}
			var controlled []string
			for try := 1; try <= 3; try++ {
				replay := filepath.Join(out, fmt.Sprintf("replay-%d.dvt", try))
				recordSeed(t, built.dir, built.bin, p.args, replay, 1, append([]string{"DIVERGO_REPLAY=" + sched}, p.env...))
				status, stdout, stderr := divergo(t, dir, "diff", "-json", run, replay)
				if status != 0 && status != 1 {
					t.Fatalf("divergo diff: status %d\n%s%s", status, stderr, stdout)
				}
				var rep compare.Report
				if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
					t.Fatalf("divergo diff -json: %v\n%.600s", err, stdout)
				}
				controlled = controlled[:0]
				for _, s := range rep.Sections {
					at := fmt.Sprintf("%s %s in %s", s.TCP.Kind, s.TCP.Pos, s.Spawn)
					if s.A.Took == s.B.Took {
						t.Errorf("parting at %s reads the same on both sides: %q", at, s.A.Took)
					}
					if s.TCP.Kind == "select" && forced[s.TCP.Block] && !s.CutOff {
						controlled = append(controlled, fmt.Sprintf("%s (%s / %s)", at, s.A.Took, s.B.Took))
					}
				}
				if len(controlled) == 0 {
					return
				}
				t.Logf("replay %d parted at statements replay controls: %s", try, strings.Join(controlled, "; "))
			}
			t.Errorf("3 replays of one run all parted from it where replay controls the outcome: %s", strings.Join(controlled, "; "))
		})
	}
}

// scheduleOf writes the sync order of the trace at path, main's goroutines,
// as DIVERGO_REPLAY reads it, and returns the blocks of the selects whose
// clause the replay forces.
func scheduleOf(path, out string) (map[int]bool, error) {
	r, err := trace.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	forced := map[int]bool{}
	for _, gi := range r.Goroutines() {
		it, err := r.Events(gi.ID)
		if err != nil {
			return nil, err
		}
		for it.Next() {
			if e := it.Event(); e.Kind == trace.EvSync && e.Op == trace.OpSelect && e.Case != 0 {
				forced[int(e.Block)] = true
			}
		}
		if err := it.Err(); err != nil {
			return nil, err
		}
	}
	s, err := r.Schedule("")
	if err != nil {
		return nil, err
	}
	f, err := os.Create(out)
	if err != nil {
		return nil, err
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		return nil, err
	}
	return forced, f.Close()
}
