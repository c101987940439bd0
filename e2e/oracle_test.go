package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// The change points whose outcome a replay of a run's sync order decides
// are the selects whose clause it forces: those the instrumenter wrote
// with SelectForce (not a select with a send whose value is a call,
// docs/INSTRUMENT.md, which the replay leaves to Go and which picks among
// its ready cases at random), and a sync.Once, whose runner takes the
// first turn at it. A parting there between a run and its replay is a
// parting that did not happen, or a replay that did not hold.

// replayMisses are programs whose replay this oracle finds wanting, with
// what it found: each is a fault of the replay to fix, not of diff, and is
// skipped with its reason so that the rest of the corpus stays checked.
var replayMisses = map[string]string{
	"stress": "its replay does not finish within two minutes on a loaded two-core machine",
	"closedchan": "a select that panics (a send on a closed channel) passes its hook but records no event, " +
		"so every later turn of main is one pass off and forces the clause of the operation before it",
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
			forced, err := scheduleOf(run, sched, forceable(t, dir, built.dir))
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
					if (s.TCP.Kind == "select" && forced[s.TCP.Block] || s.TCP.Kind == "once") && !s.CutOff {
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

// forceSite finds the selects an instrumented file lets a replay force,
// by their sites.
var forceSite = regexp.MustCompile(`SelectBegin\((\d+)\); if _dvg_r\.Forcing\(\)`)

// forceable returns the sites of the selects of the program in prog whose
// clause a replay forces, read from their instrumented copies in the
// overlay of the module in dir.
func forceable(t *testing.T, dir, prog string) map[uint32]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".divergo", "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var overlay struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &overlay); err != nil {
		t.Fatalf("overlay.json: %v", err)
	}
	sites := map[uint32]bool{}
	for orig, inst := range overlay.Replace {
		if filepath.Dir(orig) != prog || !strings.HasSuffix(orig, ".go") {
			continue
		}
		src, err := os.ReadFile(inst)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range forceSite.FindAllSubmatch(src, -1) {
			n, err := strconv.ParseUint(string(m[1]), 10, 32)
			if err != nil {
				t.Fatal(err)
			}
			sites[uint32(n)] = true
		}
	}
	return sites
}

// scheduleOf writes the sync order of the trace at path, main's goroutines,
// as DIVERGO_REPLAY reads it, and returns the blocks of the selects whose
// clause the replay forces: those that recorded their clause, at one of
// the sites force.
func scheduleOf(path, out string, force map[uint32]bool) (map[int]bool, error) {
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
			if e := it.Event(); e.Kind == trace.EvSync && e.Op == trace.OpSelect && e.Case != 0 && force[e.Site] {
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
