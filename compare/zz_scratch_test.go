package compare

import (
	"errors"
	"fmt"
	"github.com/divergo/divergo/internal/trace"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestScratchRatio(t *testing.T) {
	dir := os.Getenv("SCRATCH_DIR")
	if dir == "" {
		t.Skip()
	}
	f := newFig2(t)
	for _, size := range []struct{ blocks, every int }{{1_000_000, 0}, {10_000_000, 0}, {1_000_000, 100}} {
		name := fmt.Sprintf("%d-%d", size.blocks, size.every)
		pa, pb := filepath.Join(dir, name+"a.dvt"), filepath.Join(dir, name+"b.dvt")
		if _, err := os.Stat(pb); err != nil {
			for _, w := range []struct {
				path string
				side uint64
			}{{pa, 0}, {pb, 1}} {
				if err := writeTrace(w.path, "", f.g, &loopTrace{f: f, n: size.blocks / 5, side: w.side, every: size.every}); err != nil {
					t.Fatal(err)
				}
			}
		}
		var cs, rs []float64
		b := &testing.B{}
		_ = b
		for range 21 {
			runtime.GC()
			start := time.Now()
			ra, _ := openT(pa)
			rb, _ := openT(pb)
			_, err := Traces(ra, rb, Options{Weights: DefaultWeights})
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, float64(time.Since(start).Microseconds()))
			runtime.GC()
			start = time.Now()
			readOnlyT(t, pa, pb)
			rs = append(rs, float64(time.Since(start).Microseconds()))
		}
		slices.Sort(cs)
		slices.Sort(rs)
		t.Logf("%s: compare %.0f µs (min %.0f), read %.0f µs (min %.0f), ratio %.2f", name, cs[10], cs[0], rs[10], rs[0], cs[10]/rs[10])
	}
}

func openT(path string) (Trace, error) {
	r, err := trace.Open(path)
	if err != nil {
		return nil, err
	}
	return FromReader(r), nil
}

func readOnlyT(t *testing.T, paths ...string) {
	buf := make([]trace.Event, 4096)
	for _, path := range paths {
		r, err := trace.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range r.Goroutines() {
			er, err := r.EventReader(g.ID)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, err := er.ReadEvents(buf)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		r.Close()
	}
}

func BenchmarkScratch(b *testing.B) {
	dir := "/tmp/cmpfloor/files"
	name := os.Getenv("SCRATCH_PAIR")
	pa, pb := filepath.Join(dir, name+"a.dvt"), filepath.Join(dir, name+"b.dvt")
	if os.Getenv("SCRATCH_READ") != "" {
		for b.Loop() {
			readOnly(b, pa, pb)
		}
		return
	}
	b.ReportAllocs()
	for b.Loop() {
		ra, _ := openT(pa)
		rb, _ := openT(pb)
		if _, err := Traces(ra, rb, Options{Weights: DefaultWeights}); err != nil {
			b.Fatal(err)
		}
	}
}
