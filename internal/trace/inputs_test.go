package trace

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
	"time"
)

func encodeWith(t testing.TB, in *Inputs) []byte {
	t.Helper()
	evs := []Event{{Kind: EvClock, Time: 0}, {Kind: EvBlock, Block: 0}, {Kind: EvClock, Time: 10}}
	var buf bytes.Buffer
	h := Header{Program: "p", Start: time.Unix(1, 0), Perturbed: true, Seed: 3, Inputs: in}
	if err := EncodeHeader(&buf, h, testGraph(t), []GoroutineEvents{{ID: 1, Events: evs}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestInputsRoundTrip writes a header with the program's inputs and reads
// them back, with the fields before them unchanged; a header without them
// (every trace written before they were recorded) reads as not knowing.
func TestInputsRoundTrip(t *testing.T) {
	in := &Inputs{
		Args:       []string{"-n", "10", "", "with space"},
		GOMAXPROCS: 4,
		NumCPU:     8,
		Env:        []EnvVar{{"GODEBUG", HashEnv("gctrace=1")}, {"HOME", HashEnv("/root")}},
	}
	data := encodeWith(t, in)
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.Inputs()
	if !ok || !reflect.DeepEqual(&got, in) {
		t.Errorf("Inputs() = %+v, %v; want %+v", got, ok, in)
	}
	if seed, ok := r.Perturbed(); seed != 3 || !ok {
		t.Errorf("Perturbed() = %d, %v after the inputs were added", seed, ok)
	}
	if got := readAll(t, r, 1); len(got) != 3 {
		t.Errorf("%d events, want 3", len(got))
	}

	old := encodeWith(t, nil)
	r, err = NewReader(bytes.NewReader(old), int64(len(old)))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := r.Inputs(); ok {
		t.Errorf("a header without inputs read as %+v", got)
	}

	// No arguments, no environment: recorded, and empty.
	data = encodeWith(t, &Inputs{GOMAXPROCS: 1, NumCPU: 1})
	r, err = NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := r.Inputs(); !ok || got.GOMAXPROCS != 1 || len(got.Args)+len(got.Env) != 0 {
		t.Errorf("empty inputs read as %+v, %v", got, ok)
	}
}

// TestInputsCompatible: the inputs are added at the end of the header, so
// the bytes before them are those a trace without them has (a reader that
// stops after the seed reads the same header), and fields added after them
// later are skipped by this reader.
func TestInputsCompatible(t *testing.T) {
	without, with := header(t, encodeWith(t, nil)), header(t, encodeWith(t, &Inputs{Args: []string{"x"}, GOMAXPROCS: 2, NumCPU: 2}))
	if !bytes.HasPrefix(with, without) || len(with) == len(without) {
		t.Fatalf("header with inputs does not extend the one without (%d and %d bytes)", len(with), len(without))
	}
	future := rewriteHeader(append(with, 0x05, 'n', 'e', 'w'))
	r, err := NewReader(bytes.NewReader(future), int64(len(future)))
	if err != nil {
		t.Fatalf("a field after the inputs: %v", err)
	}
	if got, ok := r.Inputs(); !ok || len(got.Args) != 1 || got.Args[0] != "x" {
		t.Errorf("inputs before a later field read as %+v, %v", got, ok)
	}
}

// TestInputsCorrupt cuts the inputs at every byte: each cut is an error
// that says so, never a panic or a wrong reading, but the cut just before
// the environment's hash scheme, which is a header from before keyed
// hashes (FNV-1a) and read as one.
func TestInputsCorrupt(t *testing.T) {
	data := encodeWith(t, &Inputs{Args: []string{"-n", "10"}, GOMAXPROCS: 2, NumCPU: 4, Env: []EnvVar{{"A", 1}}, EnvScheme: EnvKeyed, EnvKeyID: 7})
	with := header(t, data)
	base := len(header(t, encodeWith(t, nil)))
	legacy := len(with) - 9 // before the scheme byte and the key id
	for n := base + 1; n < len(with); n++ {
		cut := rewriteHeader(with[:n])
		r, err := NewReader(bytes.NewReader(cut), int64(len(cut)))
		if n == legacy {
			if in, ok := r.Inputs(); err != nil || !ok || in.EnvScheme != EnvFNV || len(in.Env) != 1 {
				t.Errorf("inputs without a hash scheme: %+v, %v; want them read as FNV-1a hashes", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "inputs") {
			t.Errorf("inputs cut after %d of %d bytes: %v", n-base, len(with)-base, err)
		}
	}
	bad := rewriteHeader(append(with[:legacy:legacy], 9))
	if _, err := NewReader(bytes.NewReader(bad), int64(len(bad))); err == nil || !strings.Contains(err.Error(), "unknown environment hash scheme 9") {
		t.Errorf("an unknown hash scheme: %v", err)
	}
}

// TestInputsEnvScheme: the scheme and key id are read back as written.
func TestInputsEnvScheme(t *testing.T) {
	for _, in := range []Inputs{
		{GOMAXPROCS: 1, NumCPU: 1, Env: []EnvVar{{"A", 5}}, EnvScheme: EnvKeyed, EnvKeyID: 1<<64 - 1},
		{GOMAXPROCS: 1, NumCPU: 1, Env: []EnvVar{{"A", 0}}, EnvScheme: EnvNames},
		{GOMAXPROCS: 1, NumCPU: 1, Env: []EnvVar{{"A", HashEnv("x")}}, EnvScheme: EnvFNV},
	} {
		data := encodeWith(t, &in)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := r.Inputs(); !ok || got.EnvScheme != in.EnvScheme || got.EnvKeyID != in.EnvKeyID || len(got.Env) != 1 || got.Env[0] != in.Env[0] {
			t.Errorf("wrote %+v, read %+v", in, got)
		}
	}
}

// header returns the header body of an encoded trace.
func header(t *testing.T, data []byte) []byte {
	t.Helper()
	d := decoder{b: data, off: len(Magic)}
	d.uvarint()
	n := d.uvarint()
	if d.err != nil {
		t.Fatal(d.err)
	}
	return data[d.off : d.off+int(n)]
}

// rewriteHeader returns a trace of header body and no chunk: the reader
// reads it as cut short before the first, which is all these tests need.
func rewriteHeader(body []byte) []byte {
	out := []byte(Magic)
	out = binary.AppendUvarint(out, Version)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...)
}

// inputsSample is the sample trace with a header that records inputs, a
// seed of the fuzz targets.
func inputsSample(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	h := Header{Program: "sample", Start: time.Unix(1700000000, 0), Inputs: &Inputs{Args: []string{"-n", "10"}, GOMAXPROCS: 2, NumCPU: 2, Env: []EnvVar{{"HOME", HashEnv("/root")}}}}
	if err := EncodeHeader(&buf, h, testGraph(t), sample()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
