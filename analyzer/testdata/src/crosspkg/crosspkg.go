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
	v := 4
	if lib.Deref(&v) > 0 { // want `\(branch\)`
		println()
	}
}

func set(v int) { g = v }
