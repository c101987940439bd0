package main

// In package main, a method of a type that never reaches an interface is
// only called statically: its parameters come from its call sites.
type counter struct{ n int }

func (c *counter) add(k int) {
	if k > 2 {
		c.n += k
	}
}

func (c *counter) big() bool {
	return c.n > 10
}

// A type that reaches an interface may have its methods called by anyone.
type named struct{ s string }

func (n named) String() string { // want String:"summary\\(p0\\)"
	if n.s == "" { // want `\(branch\): n.s depends on parameter n, which unknown callers pass`
		return "?"
	}
	return n.s
}

// A method value may be called by anyone too.
type handler struct{}

func (h *handler) serve(k int) {
	if k > 2 { // want `\(branch\): k depends on parameter k, which unknown callers pass`
		println()
	}
}

func useMethods() {
	var c counter
	c.add(3)
	if c.big() {
		println()
	}
	var st interface{ String() string } = named{"x"}
	println(st.String())
	var h handler
	f := h.serve
	f(1)
}
