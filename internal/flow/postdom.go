package flow

// PostDominators returns the immediate post-dominator of each block (by
// Index) on the graph with a virtual exit; -1 means the virtual exit
// ("return").
//
// Every Exit block, and every block without successors (a select without
// cases), has an edge to the virtual exit. Blocks that still cannot reach it
// lie in loops that never end; for those, the head of the outermost such
// loop (the first back-edge target in reverse postorder from the entry that
// cannot reach the exit) gets a virtual edge to the exit, and so on until
// every block reaches it. A TCP inside a server loop then converges inside
// the loop, at the latest at its head; only a TCP that chooses between
// different endless loops converges at "return".
//
// The algorithm is Cooper, Harvey and Kennedy's "A Simple, Fast Dominance
// Algorithm" on the reversed graph.
func PostDominators(f *Func) []int {
	succs := make([][]int, len(f.Blocks))
	exits := make([]bool, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Succs {
			succs[b.Index] = append(succs[b.Index], s.Index)
		}
		exits[b.Index] = b.Exit
	}
	return IPostDom(succs, exits)
}

// IPostDom is [PostDominators] on a graph given by its successor lists
// (blocks 0..n-1, entry 0): exits[v] says that v can leave the function.
// It returns each block's immediate post-dominator, -1 for the virtual
// exit. The analyzer (on SSA blocks), the graph builder and compare (on the
// graph a trace embeds) all use it, so that they agree on where a TCP in an
// endless loop converges.
func IPostDom(blockSuccs [][]int, exits []bool) []int {
	n := len(blockSuccs)
	exit := n
	succs := make([][]int, n+1) // forward edges, with the virtual ones
	preds := make([][]int, n+1)
	edge := func(from, to int) {
		succs[from] = append(succs[from], to)
		preds[to] = append(preds[to], from)
	}
	for v, ss := range blockSuccs {
		for _, s := range ss {
			edge(v, s)
		}
		if exits[v] || len(ss) == 0 {
			edge(v, exit)
		}
	}
	connectEndlessLoops(n, succs, preds, edge)

	// Postorder of the reversed graph from the exit.
	order := make([]int, 0, n+1)
	num := make([]int, n+1) // postorder number
	seen := make([]bool, n+1)
	type frame struct{ v, i int }
	stack := []frame{{exit, 0}}
	seen[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(preds[top.v]) {
			p := preds[top.v][top.i]
			top.i++
			if !seen[p] {
				seen[p] = true
				stack = append(stack, frame{p, 0})
			}
			continue
		}
		num[top.v] = len(order)
		order = append(order, top.v)
		stack = stack[:len(stack)-1]
	}

	const undef = -2
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = undef
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = idom[a]
			}
			for num[b] < num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 2; i >= 0; i-- { // reverse postorder, skipping the exit
			v := order[i]
			nd := undef
			for _, s := range succs[v] { // predecessors in the reversed graph
				if idom[s] == undef {
					continue
				}
				if nd == undef {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	out := make([]int, n)
	for v := range out {
		switch d := idom[v]; d {
		case exit, undef:
			out[v] = -1
		default:
			out[v] = d
		}
	}
	return out
}

// connectEndlessLoops adds a virtual edge to the exit (index n) from the head
// of every loop that cannot reach it, outermost first.
func connectEndlessLoops(n int, succs, preds [][]int, edge func(from, to int)) {
	reach := make([]bool, n+1)
	var mark func(v int) // marks v and everything that reaches it
	mark = func(v int) {
		stack := []int{v}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reach[x] {
				continue
			}
			reach[x] = true
			stack = append(stack, preds[x]...)
		}
	}
	mark(n)
	all := true
	for v := 0; v < n; v++ {
		all = all && reach[v]
	}
	if all || n == 0 {
		return
	}

	// Depth-first search from the entry: reverse postorder and the targets
	// of back edges (edges to a block still on the stack).
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	backTarget := make([]bool, n)
	var post []int
	type frame struct{ v, i int }
	stack := []frame{{0, 0}}
	state[0] = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(succs[top.v]) {
			s := succs[top.v][top.i]
			top.i++
			if s == n {
				continue
			}
			switch state[s] {
			case 0:
				state[s] = 1
				stack = append(stack, frame{s, 0})
			case 1:
				backTarget[s] = true
			}
			continue
		}
		state[top.v] = 2
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		if v := post[i]; backTarget[v] && !reach[v] {
			edge(v, n)
			mark(v)
		}
	}
	// Anything left is not reachable from the entry; give it an edge too so
	// that every block has an answer.
	for v := 0; v < n; v++ {
		if !reach[v] {
			edge(v, n)
			mark(v)
		}
	}
}
