package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// cpuSegment is a gzipped CPU profile of one sample at function fn.
func cpuSegment(t testing.TB, fn string, n int64) []byte {
	f := &profile.Function{ID: 1, Name: fn, Filename: "main.go"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: f, Line: 10}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     int64(10 * time.Millisecond),
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{n, n * 1e7}}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{f},
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadCPUProfileSegments: the runtime's file of CPU samples is one
// profile, or several in sequence when the program ran its own in between;
// they are merged.
func TestReadCPUProfileSegments(t *testing.T) {
	one := cpuSegment(t, "main.a", 2)
	p, err := readCPUProfile(bytes.NewReader(one))
	if err != nil || len(p.Sample) != 1 || p.Sample[0].Value[0] != 2 {
		t.Fatalf("one segment: %v, %v", p, err)
	}
	three := append(append(append([]byte{}, one...), cpuSegment(t, "main.b", 3)...), cpuSegment(t, "main.a", 1)...)
	p, err = readCPUProfile(bytes.NewReader(three))
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int64{}
	for _, s := range p.Sample {
		by[s.Location[0].Line[0].Function.Name] += s.Value[0]
	}
	if by["main.a"] != 3 || by["main.b"] != 3 {
		t.Errorf("merged: %v, want main.a 3 and main.b 3", by)
	}
	for _, bad := range [][]byte{nil, []byte("x"), one[:len(one)/2], append(append([]byte{}, one...), 0x1f)} {
		if _, err := readCPUProfile(bytes.NewReader(bad)); err == nil {
			t.Errorf("%d bytes of damaged input read without an error", len(bad))
		}
	}
}

// FuzzReadCPUProfile: no input panics the reader.
func FuzzReadCPUProfile(f *testing.F) {
	one := cpuSegment(f, "main.a", 2)
	f.Add(one)
	f.Add(append(append([]byte{}, one...), one...))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		readCPUProfile(bytes.NewReader(data))
	})
}
