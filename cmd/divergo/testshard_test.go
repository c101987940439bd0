package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/flaky"
)

// TestShardRuns: the shards of N share out the run indexes in consecutive
// blocks, each run to exactly one shard, and bad values are refused.
func TestShardRuns(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		count := make([]int, 10)
		for k := 1; k <= n; k++ {
			sh, err := parseShard(fmt.Sprintf("%d/%d", k, n))
			if err != nil {
				t.Fatal(err)
			}
			for run := range count {
				if sh.has(run, len(count)) {
					count[run]++
				}
			}
		}
		for run, c := range count {
			if c != 1 {
				t.Errorf("%d shards: run %d made by %d of them, want 1", n, run, c)
			}
		}
	}
	sh, _ := parseShard("2/3")
	var got []int
	for k := range 8 {
		if sh.has(k, 8) {
			got = append(got, k)
		}
	}
	if want := []int{2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("shard 2/3 of 8 runs: %v, want %v", got, want)
	}
	// Each of 4 shards of 40 runs gets the plan's mix, which its plan
	// needs to adapt: unperturbed runs and perturbed ones.
	plan := flaky.NewPlan(true)
	mix := map[int][2]int{} // shard → unperturbed, perturbed runs
	for k := range 40 {
		strength := plan.Next()
		for K := 1; K <= 4; K++ {
			if (shard{K: K, N: 4}).has(k, 40) {
				m := mix[K]
				if strength == flaky.Unperturbed {
					m[0]++
				} else {
					m[1]++
				}
				mix[K] = m
			}
		}
	}
	for K := 1; K <= 4; K++ {
		if m := mix[K]; m[0] < 2 || m[1] < 6 {
			t.Errorf("shard %d/4 of 40 runs: %d unperturbed, %d perturbed; want the plan's mix", K, m[0], m[1])
		}
	}
	for _, bad := range []string{"0/3", "3/2", "x", "1/0", "1/", "/2", "-1/2", "1/2/3"} {
		if _, err := parseShard(bad); err == nil {
			t.Errorf("-shard %s accepted", bad)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("-shard %s: error %q is not one line", bad, err)
		}
	}
}

// TestReadRecords merges the records of two shard directories by run
// index, and refuses a run given twice, a run missing, and runs of
// another package or build.
func TestReadRecords(t *testing.T) {
	write := func(dir string, runs []int, edit func(*runRecord)) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		for _, run := range runs {
			rec := &runRecord{Package: ".", Graph: "abc", Args: []string{"-test.v=true"}, Runs: 4, Run: run, Seed: int64(run),
				Perturbed: true, Strength: 50, Tests: map[string]string{"TestX": "pass"}, Trace: filepath.Base(dir) + ".dvt", dir: dir}
			if edit != nil {
				edit(rec)
			}
			if err := rec.write(); err != nil {
				t.Fatal(err)
			}
		}
	}
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	write(a, []int{1, 3}, nil)
	write(b, []int{2, 4}, nil)
	read := func(dirs []string) ([]*runRecord, error) {
		recs, err := readRecordTree(dirs)
		if err != nil {
			return nil, err
		}
		return checkRecords(recs)
	}
	recs, err := read([]string{b, a})
	if err != nil {
		t.Fatal(err)
	}
	for k, rec := range recs {
		if rec.Run != k+1 || rec.Seed != int64(k+1) {
			t.Errorf("record %d is of run %d, seed %d", k, rec.Run, rec.Seed)
		}
	}
	if recs[0].tracePath() != filepath.Join(a, "a.dvt") || recs[1].tracePath() != filepath.Join(b, "b.dvt") {
		t.Errorf("traces %s, %s: want each in its record's directory", recs[0].tracePath(), recs[1].tracePath())
	}

	refused := func(what string, dirs []string, want string) {
		t.Helper()
		_, err := read(dirs)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", what, err, want)
		}
	}
	refused("a shard twice", []string{a, b, a}, "run 1 is in both")
	refused("a shard missing", []string{a}, "no record of run 2, 4 of 4")
	c := filepath.Join(tmp, "c")
	write(c, []int{2, 4}, func(r *runRecord) { r.Package = "./other" })
	refused("another package", []string{a, c}, "not .")
	d := filepath.Join(tmp, "d")
	write(d, []int{2, 4}, func(r *runRecord) { r.Graph = "def" })
	refused("another build", []string{a, d}, "different builds")
	e := filepath.Join(tmp, "e")
	write(e, []int{2, 4}, func(r *runRecord) { r.Runs = 5 })
	refused("another -n", []string{a, e}, "another invocation")
	f := filepath.Join(tmp, "f")
	write(f, []int{2, 4}, func(r *runRecord) { r.Seed += 100 })
	refused("another -seed", []string{a, f}, "another invocation")
	empty := filepath.Join(tmp, "empty")
	if err := os.Mkdir(empty, 0o777); err != nil {
		t.Fatal(err)
	}
	refused("no records", []string{empty}, "no run records")
}
