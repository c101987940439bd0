package crosspkg

import "lib"

var g int

func use() {
	if lib.Shared() > 0 { // want `\(branch\): lib.Shared\(\) depends on result of lib.Shared`
		println()
	}
	if lib.Id(3) > 0 {
		println()
	}
	if lib.Id(g) > 0 { // want `\(branch\): g depends on package variable g`
		println()
	}
	a, b := lib.Pair(g, 2)
	if a > 0 {
		println()
	}
	if b > 0 {
		println()
	}
	// Local memory passed to a callee that keeps it local stays local.
	v := 4
	if lib.Deref(&v) > 0 {
		println()
	}
	if lib.Deref(&g) > 0 { // want `\(branch\): lib.Deref\(&g\) depends on package variable g`
		println()
	}
	// What the callee stores through a pointer is known by its fact.
	var w1, w2 int
	lib.Fill(&w1, g)
	lib.Fill(&w2, 3)
	if w1 > 0 { // want `\(branch\): w1 depends on package variable g`
		println()
	}
	if w2 > 0 {
		println()
	}
}

func set(v int) { g = v }
