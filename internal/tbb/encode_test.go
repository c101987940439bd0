package tbb

import (
	"strings"
	"testing"
)

// sample is a two-function graph: main with an if whose CP is the join, and a
// callee whose only block returns.
func sample() *Graph {
	return &Graph{
		Module:   "example.com/m",
		Packages: []string{"example.com/m"},
		Funcs: []*Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: Pos{"main.go", 5, 6}, Entry: 0, Blocks: []int{0, 1, 2}},
			{ID: 1, Name: "example.com/m.f", Pkg: "example.com/m", Pos: Pos{"main.go", 20, 6}, Entry: 3, Blocks: []int{3}},
		},
		Blocks: []*Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: Pos{"main.go", 6, 2}, Probe: true, Instrs: 4, Succs: []int{1, 2},
				TCP: &TCP{Kind: Branch, Pos: Pos{"main.go", 7, 2}, Why: "x is shared", CP: 2, CPPos: Pos{"main.go", 10, 2}}},
			{ID: 1, Func: 0, Kind: "if.then", Pos: Pos{"main.go", 8, 3}, Probe: true, Instrs: 2, Succs: []int{2}},
			{ID: 2, Func: 0, Kind: "if.done", Pos: Pos{"main.go", 10, 2}, Probe: true, Instrs: 1, CP: true, Exit: true},
			{ID: 3, Func: 1, Kind: "entry", Pos: Pos{"main.go", 21, 2}, Probe: true, Instrs: 1, Exit: true},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	g := sample()
	data, err := Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(g.Hash, "sha256:") || len(g.Hash) != len("sha256:")+64 {
		t.Fatalf("hash %q is not a sha256", g.Hash)
	}
	h, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if h.Hash != g.Hash || len(h.Blocks) != 4 || h.Blocks[0].TCP.CP != 2 || h.Block(2).TCP != nil {
		t.Fatalf("round trip changed the graph: %+v", h)
	}
	// Marshalling again gives the same bytes: the hash is of content only.
	again, err := Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Fatal("encoding is not deterministic")
	}
}

func TestHashDependsOnContent(t *testing.T) {
	a, b := sample(), sample()
	b.Blocks[1].Instrs++
	if _, err := Marshal(a); err != nil {
		t.Fatal(err)
	}
	if _, err := Marshal(b); err != nil {
		t.Fatal(err)
	}
	if a.Hash == b.Hash {
		t.Fatal("different graphs have the same hash")
	}
}

func TestUnmarshalErrors(t *testing.T) {
	good, err := Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	tamper := func(old, new string) []byte {
		if !strings.Contains(string(good), old) {
			t.Fatalf("sample encoding lacks %q", old)
		}
		return []byte(strings.Replace(string(good), old, new, 1))
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "decoding graph"},
		{"not json", []byte("DVG"), "decoding graph"},
		{"newer", tamper(`"version":1`, `"version":2`), "newer than this divergo"},
		{"zero version", tamper(`"version":1`, `"version":0`), "not valid"},
		{"tampered", tamper(`"instrs":4`, `"instrs":5`), "does not match its content"},
		{"bad successor", tamper(`"succs":[1,2]`, `"succs":[1,9]`), "successor 9 out of range"},
		{"bad cp", tamper(`"cp":2`, `"cp":3`), "convergence point 3"},
		{"bad kind", tamper(`"kind":"branch"`, `"kind":"goto"`), "unknown TCP kind"},
		{"unknown field", tamper(`"module"`, `"modul":"x","module"`), "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unmarshal(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestConverges(t *testing.T) {
	g := sample()
	if got := g.Blocks[0].TCP.Converges(); got != "at main.go:10" {
		t.Errorf("Converges = %q", got)
	}
	ret := &TCP{CP: Return}
	if got := ret.Converges(); got != "at return" {
		t.Errorf("Converges = %q", got)
	}
}

func FuzzUnmarshal(f *testing.F) {
	good, err := Marshal(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Unmarshal(data)
		if err != nil {
			return
		}
		// Whatever decodes must be internally consistent and re-encode.
		if err := g.Validate(); err != nil {
			t.Fatalf("decoded graph does not validate: %v", err)
		}
		if _, err := Marshal(g); err != nil {
			t.Fatalf("decoded graph does not re-encode: %v", err)
		}
	})
}
