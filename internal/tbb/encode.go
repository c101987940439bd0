package tbb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// maxGraphBytes bounds what Unmarshal accepts, so that a corrupt length in a
// trace cannot make a reader allocate without limit.
const maxGraphBytes = 1 << 30

// Marshal encodes g as JSON, setting g.Hash to the hash of its content.
func Marshal(g *Graph) ([]byte, error) {
	if g.Version == 0 {
		g.Version = Version
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	h, err := contentHash(g)
	if err != nil {
		return nil, err
	}
	g.Hash = h
	return json.Marshal(g)
}

// contentHash hashes the encoding of g with an empty Hash field.
func contentHash(g *Graph) (string, error) {
	saved := g.Hash
	g.Hash = ""
	data, err := json.Marshal(g)
	g.Hash = saved
	if err != nil {
		return "", fmt.Errorf("encoding graph: %w", err)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Unmarshal decodes a graph written by Marshal and checks its version, its
// hash and that every block and function reference is in range.
func Unmarshal(data []byte) (*Graph, error) {
	if len(data) > maxGraphBytes {
		return nil, fmt.Errorf("graph is %d bytes, more than the %d allowed", len(data), maxGraphBytes)
	}
	var g Graph
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("decoding graph: %w", err)
	}
	if g.Version > Version {
		return nil, fmt.Errorf("graph format version %d is newer than this divergo understands (%d)", g.Version, Version)
	}
	if g.Version < 1 {
		return nil, fmt.Errorf("graph format version %d is not valid", g.Version)
	}
	if g.Version < 2 && len(g.Sites) > 0 {
		return nil, fmt.Errorf("graph format version %d has no sites, but the graph holds %d", g.Version, len(g.Sites))
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	want, err := contentHash(&g)
	if err != nil {
		return nil, err
	}
	if g.Hash != want {
		return nil, fmt.Errorf("graph hash %q does not match its content (%s)", g.Hash, want)
	}
	return &g, nil
}

// Validate checks that ids are dense and every reference is in range.
func (g *Graph) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		if len(errs) < 10 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	for i, f := range g.Funcs {
		if f == nil {
			bad("func %d is missing", i)
			continue
		}
		if f.ID != i {
			bad("func %d has id %d", i, f.ID)
		}
		if g.Block(f.Entry) == nil {
			bad("func %d (%s): entry block %d out of range", i, f.Name, f.Entry)
		}
		for _, b := range f.Blocks {
			if blk := g.Block(b); blk == nil || blk.Func != i {
				bad("func %d (%s): block %d out of range or of another function", i, f.Name, b)
			}
		}
	}
	for i, b := range g.Blocks {
		if b == nil {
			bad("block %d is missing", i)
			continue
		}
		if b.ID != i {
			bad("block %d has id %d", i, b.ID)
		}
		if g.Func(b.Func) == nil {
			bad("block %d: func %d out of range", i, b.Func)
		}
		for _, s := range b.Succs {
			if sb := g.Block(s); sb == nil || sb.Func != b.Func {
				bad("block %d: successor %d out of range or in another function", i, s)
			}
		}
		if b.Pack != 0 {
			if hb := g.Block(b.Pack); hb == nil || hb.Func != b.Func || !b.Probe {
				bad("block %d: packed in loop %d, out of range, in another function or not probed", i, b.Pack)
			}
		}
		for _, t := range append([]*TCP{b.TCP}, b.Also...) {
			if t == nil {
				continue
			}
			if !t.Kind.Valid() {
				bad("block %d: unknown TCP kind %q", i, t.Kind)
			}
			if t.CP != Return {
				if cb := g.Block(t.CP); cb == nil || cb.Func != b.Func {
					bad("block %d: convergence point %d out of range or in another function", i, t.CP)
				}
			}
		}
	}
	for i, s := range g.Sites {
		if s == nil {
			bad("site %d is missing", i)
			continue
		}
		if s.ID != i {
			bad("site %d has id %d", i, s.ID)
		}
		if g.Block(s.Block) == nil {
			bad("site %d: block %d out of range", i, s.Block)
		}
		if !ValidSiteOp(s.Op) {
			bad("site %d: unknown operation %q", i, s.Op)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid graph: %w", errors.Join(errs...))
	}
	return nil
}
