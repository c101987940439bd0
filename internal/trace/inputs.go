package trace

import (
	"encoding/binary"
	"fmt"
)

// Inputs is what the program was given to run on: the inputs the analyzer
// takes to be the same in two runs of one program (docs/SOUNDNESS.md, "the
// program's input"), recorded once in the header so that a comparison can
// say first that two runs had different ones (docs/FORMAT.md, "Inputs").
type Inputs struct {
	// Args is the command line after the program's name (os.Args[1:]).
	Args []string
	// GOMAXPROCS is its value when recording started, NumCPU the
	// processors the Go runtime saw.
	GOMAXPROCS int
	NumCPU     int
	// Env is the environment by name, sorted, without divergo's own
	// variables (DIVERGO_*, which divergo sets differently for every run);
	// each value is kept as a keyed hash only, since environments hold
	// secrets and a trace is a file people send (envkey.go).
	Env []EnvVar
	// EnvScheme says how the values were hashed, EnvKeyID under which key
	// (EnvKeyed): two runs' hashes say whether a value was the same only
	// when both are equal.
	EnvScheme EnvScheme
	EnvKeyID  uint64
}

// EnvComparable reports whether the values of a's and b's environments
// can be compared by their hashes: hashed the same way, under the same
// key.
func EnvComparable(a, b Inputs) bool {
	return a.EnvScheme == b.EnvScheme && a.EnvScheme != EnvNames && (a.EnvScheme != EnvKeyed || a.EnvKeyID == b.EnvKeyID)
}

// EnvVar is one variable of the environment.
type EnvVar struct {
	Name string
	Hash uint64 // of the value, as Inputs.EnvScheme says; 0 for EnvNames
}

// HashEnv is the hash environment values were recorded by before keyed
// hashes (EnvFNV): 64-bit FNV-1a, the same in every run, on every
// platform and for everyone.
func HashEnv(value string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(value); i++ {
		h ^= uint64(value[i])
		h *= 1099511628211
	}
	return h
}

// appendInputs encodes in at the end of the header body.
func appendInputs(b []byte, in *Inputs) []byte {
	b = binary.AppendUvarint(b, uint64(len(in.Args)))
	for _, a := range in.Args {
		b = binary.AppendUvarint(b, uint64(len(a)))
		b = append(b, a...)
	}
	b = binary.AppendUvarint(b, uint64(max(in.GOMAXPROCS, 0)))
	b = binary.AppendUvarint(b, uint64(max(in.NumCPU, 0)))
	b = binary.AppendUvarint(b, uint64(len(in.Env)))
	for _, e := range in.Env {
		b = binary.AppendUvarint(b, uint64(len(e.Name)))
		b = append(b, e.Name...)
		b = binary.LittleEndian.AppendUint64(b, e.Hash)
	}
	// After the list, so that a reader from before keyed hashes, which
	// stops at its end, still reads the header.
	b = append(b, byte(in.EnvScheme))
	if in.EnvScheme == EnvKeyed {
		b = binary.LittleEndian.AppendUint64(b, in.EnvKeyID)
	}
	return b
}

// maxProcs bounds GOMAXPROCS and NumCPU as read, so that they fit an int
// on every platform.
const maxProcs = 1 << 30

// readInputs decodes what appendInputs wrote. Counts are not trusted for
// allocation: every element takes at least a byte of the body.
func readInputs(d *decoder) (*Inputs, error) {
	in := &Inputs{}
	n := d.uvarint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		in.Args = append(in.Args, string(d.bytes(len(d.b), "argument")))
	}
	procs, cpus := d.uvarint(), d.uvarint()
	if d.err == nil && (procs > maxProcs || cpus > maxProcs) {
		return nil, fmt.Errorf("GOMAXPROCS %d or NumCPU %d out of range", procs, cpus)
	}
	in.GOMAXPROCS, in.NumCPU = int(procs), int(cpus)
	n = d.uvarint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		name := string(d.bytes(len(d.b), "variable name"))
		h := d.fixed(8, 8, "variable hash")
		if d.err == nil {
			in.Env = append(in.Env, EnvVar{Name: name, Hash: binary.LittleEndian.Uint64(h)})
		}
	}
	// The scheme and key id; absent in traces from before them, whose
	// hashes are FNV-1a.
	if d.err == nil && len(d.rest()) > 0 {
		in.EnvScheme = EnvScheme(d.byte())
		switch in.EnvScheme {
		case EnvFNV, EnvNames:
		case EnvKeyed:
			if id := d.fixed(8, 8, "environment key id"); d.err == nil {
				in.EnvKeyID = binary.LittleEndian.Uint64(id)
			}
		default:
			return nil, fmt.Errorf("unknown environment hash scheme %d", in.EnvScheme)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return in, nil
}
