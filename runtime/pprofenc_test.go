package runtime

import (
	"bytes"
	"compress/gzip"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestEncodeProfile: samples counted by stack, encoded as the sampler
// writes them, parse as a pprof profile with their counts, CPU time and
// frames, innermost first, down to this test.
func TestEncodeProfile(t *testing.T) {
	pcs := make([]uintptr, 32)
	n := goruntime.Callers(1, pcs)
	stk := make([]uint64, n)
	for i := range stk {
		stk[i] = uint64(pcs[i])
	}
	counts := map[string]uint64{stackKey(stk): 3, stackKey(stk[1:]): 2}
	if got := keyStack(stackKey(stk)); len(got) != n || got[0] != pcs[0] {
		t.Fatalf("keyStack(stackKey) = %x, want %x", got, pcs[:n])
	}
	data := encodeProfile(counts, 100, time.Unix(1, 0), time.Unix(2, 0))
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	if len(p.SampleType) != 2 || p.SampleType[1].Type != "cpu" || p.Period != 1e7 || p.DurationNanos != 1e9 {
		t.Errorf("sample types %v, period %d, duration %d", p.SampleType, p.Period, p.DurationNanos)
	}
	total := int64(0)
	found := false
	for _, s := range p.Sample {
		total += s.Value[0]
		if s.Value[1] != s.Value[0]*1e7 {
			t.Errorf("sample %v: cpu %d, want count × period", s.Value, s.Value[1])
		}
		if len(s.Location) == n {
			ln := s.Location[0].Line
			found = len(ln) > 0 && strings.HasSuffix(ln[0].Function.Name, ".TestEncodeProfile") &&
				strings.HasSuffix(ln[0].Function.Filename, "pprofenc_test.go")
		}
	}
	if total != 5 || !found {
		t.Errorf("%d samples, the full stack's innermost frame this test: %v\n%s", total, found, p)
	}
}
