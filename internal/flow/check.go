package flow

import (
	"errors"
	"fmt"
)

// Check verifies the properties readers of a trace rely on: the entry block
// is probed (no block is, in a silent function); every probed block has a probe position and no two share one;
// no cycle runs through implied blocks only but inside a quiet loop nest,
// which counts as one implied block (nest.go); and from every probed block,
// the path through implied blocks to each next probed block, and to the
// function's exit, is unique. It returns nil or an error naming the first
// blocks that break them.
func Check(f *Func) error {
	if len(f.Blocks) == 0 {
		return errors.New("function has no blocks")
	}
	if f.Silent {
		for _, b := range f.Blocks {
			if b.Probed() {
				return fmt.Errorf("block %d (%s) of a silent function is probed", b.Index, b.Kind)
			}
		}
		return nil
	}
	if !f.Blocks[0].Probed() {
		return errors.New("entry block is not probed")
	}
	seen := map[Probe]int{}
	for _, b := range f.Blocks {
		if !b.Probed() {
			continue
		}
		if !b.Probe.Pos.IsValid() {
			return fmt.Errorf("block %d (%s) is probed at no position", b.Index, b.Kind)
		}
		if o, ok := seen[b.Probe]; ok {
			return fmt.Errorf("blocks %d and %d (%s) share a probe point", o, b.Index, b.Kind)
		}
		seen[b.Probe] = b.Index
	}

	// ways[v] counts, for implied block v, the implied-only paths from v to
	// each probed block (by index) or to the exit (key -1).
	const exitKey = -1
	ways := make([]map[int]int, len(f.Blocks))
	state := make([]uint8, len(f.Blocks)) // 0 new, 1 in progress, 2 done
	var count func(v *Block) (map[int]int, error)
	count = func(v *Block) (map[int]int, error) {
		switch state[v.Index] {
		case 1:
			return nil, fmt.Errorf("implied block %d (%s) is on a cycle of implied blocks", v.Index, v.Kind)
		case 2:
			return ways[v.Index], nil
		}
		state[v.Index] = 1
		var m map[int]int
		var err error
		if v.Nest != nil && v.Nest != v {
			return nil, fmt.Errorf("block %d (%s) of a quiet loop nest is entered past its head", v.Index, v.Kind)
		}
		if v.Nest == v {
			m, err = reachNest(f, v, count)
		} else {
			m, err = reach(v, count)
		}
		if err != nil {
			return nil, err
		}
		state[v.Index] = 2
		ways[v.Index] = m
		return m, nil
	}
	for _, b := range f.Blocks {
		if b.Nest != nil && b.Nest != b {
			continue // reached through its nest's head only
		}
		if !b.Probed() {
			if _, err := count(b); err != nil {
				return err
			}
			continue
		}
		m, err := reach(b, count)
		if err != nil {
			return err
		}
		for to, k := range m {
			if k > 1 {
				name := "the exit"
				if to != exitKey {
					name = fmt.Sprintf("block %d (%s)", to, f.Blocks[to].Kind)
				}
				return fmt.Errorf("%d paths through implied blocks lead from block %d (%s) to %s", k, b.Index, b.Kind, name)
			}
		}
	}
	return nil
}

// reach counts the paths of length ≥ 1 that leave v and pass implied blocks
// only, by where they end.
func reach(v *Block, count func(*Block) (map[int]int, error)) (map[int]int, error) {
	m := map[int]int{}
	if v.Exit {
		m[-1]++
	}
	for _, s := range v.Succs {
		if err := into(m, s, count); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// into adds to m the paths that step into s: s itself when it is probed,
// else the paths that leave it.
func into(m map[int]int, s *Block, count func(*Block) (map[int]int, error)) error {
	if s.Probed() {
		m[s.Index]++
		return nil
	}
	sm, err := count(s)
	if err != nil {
		return err
	}
	for k, c := range sm {
		m[k] += c
	}
	return nil
}

// reachNest is reach for the quiet loop nest whose head is h: the paths
// leaving it, one per block it leaves to, whatever its iterations did.
func reachNest(f *Func, h *Block, count func(*Block) (map[int]int, error)) (map[int]int, error) {
	m := map[int]int{}
	out := map[*Block]bool{}
	for _, b := range f.Blocks {
		if b.Nest != h {
			continue
		}
		if b.Probed() {
			return nil, fmt.Errorf("block %d (%s) of a quiet loop nest is probed", b.Index, b.Kind)
		}
		if b.Exit {
			m[-1] = 1
		}
		for _, s := range b.Succs {
			if s.Nest == h {
				continue
			}
			out[s] = true
		}
	}
	for _, s := range f.Blocks {
		if out[s] {
			if err := into(m, s, count); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
