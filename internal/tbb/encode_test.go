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
		Sites: []*Site{
			{ID: 0, Block: 1, Op: "lock", Pos: Pos{"main.go", 8, 3}},
			{ID: 1, Block: 1, Op: "sleep", Pos: Pos{"main.go", 9, 3}},
			{ID: 2, Block: 3, Op: "go", Pos: Pos{"main.go", 22, 2}},
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
		{"newer", tamper(`"version":2`, `"version":3`), "newer than this divergo"},
		{"zero version", tamper(`"version":2`, `"version":0`), "not valid"},
		{"sites in version 1", tamper(`"version":2`, `"version":1`), "has no sites"},
		{"site block", tamper(`"block":3`, `"block":4`), "site 2: block 4 out of range"},
		{"site id", tamper(`"id":2,"block"`, `"id":5,"block"`), "site 2 has id 5"},
		{"site op", tamper(`"op":"sleep"`, `"op":"nap"`), `unknown operation "nap"`},
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

// TestVersion1 reads a graph of format version 1, which has no sites:
// graphs written before sites existed stay readable.
func TestVersion1(t *testing.T) {
	g := sample()
	g.Version, g.Sites = 1, nil
	data, err := Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "sites") {
		t.Fatalf("a graph without sites encodes them: %s", data)
	}
	h, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != 1 || h.Site(0) != nil {
		t.Fatalf("version %d, site 0 %v", h.Version, h.Site(0))
	}
}

func TestSite(t *testing.T) {
	g := sample()
	if s := g.Site(1); s == nil || s.Op != "sleep" || s.Pos.FileLine() != "main.go:9" || s.Block != 1 {
		t.Errorf("Site(1) = %+v", s)
	}
	if g.Site(-1) != nil || g.Site(3) != nil {
		t.Error("Site out of range is not nil")
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
	f.Add([]byte(`{"version":2,"sites":[{"id":0,"block":0,"op":"go"}]}`))
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
