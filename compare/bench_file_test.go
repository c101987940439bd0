package compare

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// writeTrace streams t's goroutine 1 into a trace file chunk by chunk, so
// that large benchmark traces never sit in memory; with dump set it also
// writes a text dump, one event per line (clocks left out), for the diff
// baseline. The chunks are those the runtime writes for a busy goroutine:
// its buffer starts at 256 words and doubles up to 32Ki, keeping 16 for the
// clock that closes each chunk (a block event is one word).
func writeTrace(path, dump string, g *tbb.Graph, t Trace) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	data, err := tbb.Marshal(g)
	if err != nil {
		return err
	}
	w, err := trace.NewWriter(bw, trace.Header{Program: "bench", Start: time.Unix(0, 0), Graph: data, Hash: g.Hash})
	if err != nil {
		return err
	}
	var tw *bufio.Writer
	if dump != "" {
		df, err := os.Create(dump)
		if err != nil {
			return err
		}
		defer df.Close()
		tw = bufio.NewWriterSize(df, 1<<20)
		defer tw.Flush()
	}
	r, err := t.Events(1)
	if err != nil {
		return err
	}
	const reserve, maxWords = 16, 32 << 10
	words := 256
	buf := make([]trace.Event, maxWords-reserve)
	now := int64(0)
	for seq := uint64(0); ; seq++ {
		n, rerr := r.Read(buf[:words-reserve])
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return rerr
		}
		c := &trace.Chunk{G: 1, Seq: seq, Final: rerr != nil}
		if seq == 0 {
			c.Origin = trace.Origin{GoID: 1, FirstBlock: buf[0].Block, HasFirst: true}
		}
		for _, e := range buf[:n] {
			c.Add(e)
			if tw != nil {
				fmt.Fprintf(tw, "%s %d %d\n", e.Kind, e.Block, e.Value)
			}
		}
		now += int64(n) * 3 // about 3 ns per block
		c.Add(trace.Event{Kind: trace.EvClock, Time: now})
		words = min(2*words, maxWords)
		if err := w.WriteChunk(c); err != nil {
			return err
		}
		if rerr != nil {
			break
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

func openTrace(b *testing.B, path string) Trace {
	r, err := trace.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return FromReader(r)
}

// timeCmd runs a command and returns how long it took; exit status 1 (files
// differ) is not an error.
func timeCmd(b *testing.B, name string, args ...string) time.Duration {
	start := time.Now()
	err := exec.Command(name, args...).Run()
	d := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		b.Fatalf("%s: %v", name, err)
	}
	return d
}

// readOnly decodes every event of the traces at paths with the reader the
// comparison uses, without comparing: the floor for any consumer of the
// format. It returns how long that took, opening the files included.
func readOnly(b *testing.B, paths ...string) time.Duration {
	start := time.Now()
	buf := make([]trace.Event, 4096)
	for _, path := range paths {
		r, err := trace.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range r.Goroutines() {
			er, err := r.EventReader(g.ID)
			if err != nil {
				b.Fatal(err)
			}
			var n uint64
			for {
				k, err := er.ReadEvents(buf)
				n += uint64(k)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if n != g.Events {
				b.Fatalf("%s: goroutine %d: read %d events, index says %d", path, g.ID, n, g.Events)
			}
		}
		r.Close()
	}
	return time.Since(start)
}

// BenchmarkCompareFiles compares two trace files of 1M and 10M block
// executions per side with 100 divergences, and of 1M with one in 100
// iterations diverging (dense), and reports, from the same run, how long cmp takes
// to read two files of that size (a file against its copy: cmp stops at
// the first difference of two different traces) as the ratio x-cmp, how
// long decoding both traces' events takes without comparing them as the
// ratio x-read, and
// at 1M (at every size with COMPARE_BENCH_DIFF=1) how long GNU diff
// --minimal (Myers' exact diff) takes on text dumps of the two traces,
// relative to the comparison, as diff/compare.
func BenchmarkCompareFiles(b *testing.B) {
	if _, err := exec.LookPath("cmp"); err != nil {
		b.Skip("no cmp")
	}
	f := newFig2(b)
	for _, size := range []struct {
		blocks, every int
	}{{1_000_000, 0}, {10_000_000, 0}, {1_000_000, 100}} {
		blocks := size.blocks
		name := fmt.Sprintf("blocks=%d", blocks)
		if size.every > 0 {
			name += fmt.Sprintf("/dense=%d", size.every)
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			pa, pa2, pb := filepath.Join(dir, "a.dvt"), filepath.Join(dir, "a2.dvt"), filepath.Join(dir, "b.dvt")
			da, db := "", ""
			if blocks <= 1_000_000 || os.Getenv("COMPARE_BENCH_DIFF") != "" {
				da, db = filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
			}
			iters := blocks / 5
			for _, w := range []struct {
				path, dump string
				side       uint64
			}{{pa, da, 0}, {pa2, "", 0}, {pb, db, 1}} {
				if err := writeTrace(w.path, w.dump, f.g, &loopTrace{f: f, n: iters, side: w.side, every: size.every}); err != nil {
					b.Fatal(err)
				}
			}
			st, _ := os.Stat(pa)
			b.ReportAllocs()
			var rep *Report
			var cmpTime, readTime, diffTime time.Duration
			for b.Loop() {
				var err error
				rep, err = Traces(openTrace(b, pa), openTrace(b, pb), Options{Weights: DefaultWeights})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cmpTime += timeCmd(b, "cmp", pa, pa2)
				readTime += readOnly(b, pa, pb)
				if da != "" {
					diffTime += timeCmd(b, "diff", "--minimal", da, db)
				}
				b.StartTimer()
			}
			if want := 101; size.every == 0 && len(rep.Sections) != want {
				b.Fatalf("%d sections", len(rep.Sections))
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ns/float64(rep.Summary.BlocksA+rep.Summary.BlocksB), "ns/block")
			b.ReportMetric(ns/(float64(cmpTime.Nanoseconds())/float64(b.N)), "x-cmp")
			b.ReportMetric(ns/(float64(readTime.Nanoseconds())/float64(b.N)), "x-read")
			if da != "" {
				b.ReportMetric(float64(diffTime.Nanoseconds())/float64(b.N)/ns, "diff/compare")
			}
			b.ReportMetric(float64(st.Size())/(1<<20), "MB/file")
		})
	}
}
