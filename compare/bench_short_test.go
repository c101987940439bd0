package compare

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// clockTrace is loopTrace with a clock every k events, at times that
// differ by side: equal stretches of a few events, as in a program that
// synchronises often, where lockstep cannot take long runs of bytes.
type clockTrace struct {
	*loopTrace
	k int
}

func (t *clockTrace) Events(id uint64) (EventReader, error) {
	r, err := t.loopTrace.Events(id)
	if err != nil {
		return nil, err
	}
	return &clockReader{r: r, k: t.k, step: 7 + int64(t.side)}, nil
}

type clockReader struct {
	r        EventReader
	k, n     int
	step     int64
	now      int64
	buf, pen []trace.Event
	err      error
}

func (c *clockReader) Read(out []trace.Event) (int, error) {
	k := 0
	for k < len(out) {
		if len(c.pen) == 0 {
			if c.err != nil {
				return k, c.err
			}
			if c.buf == nil {
				c.buf = make([]trace.Event, 256)
			}
			n, err := c.r.Read(c.buf)
			c.pen, c.err = c.buf[:n], err
			continue
		}
		if c.n++; c.n%c.k == 0 {
			c.now += c.step
			out[k] = trace.Event{Kind: trace.EvClock, Time: c.now}
		} else {
			out[k], c.pen = c.pen[0], c.pen[1:]
		}
		k++
	}
	return k, nil
}

// BenchmarkCompareFilesShort compares the benchmark's sparse 1M pair with a
// clock every 4, 16 and 64 events on each side (at different places once
// b has diverged): what lockstep from bytes costs where its runs are
// short.
func BenchmarkCompareFilesShort(b *testing.B) {
	f := newFig2(b)
	for _, k := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("clock-every=%d", k), func(b *testing.B) {
			dir := b.TempDir()
			pa, pb := filepath.Join(dir, "a.dvt"), filepath.Join(dir, "b.dvt")
			for _, w := range []struct {
				path string
				side uint64
			}{{pa, 0}, {pb, 1}} {
				if err := writeTrace(w.path, "", f.g, &clockTrace{&loopTrace{f: f, n: 1_000_000 / 5, side: w.side}, k}); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if _, err := Traces(openTrace(b, pa), openTrace(b, pb), Options{Weights: DefaultWeights}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
