package maprange

func keys() {
	m := map[string]int{"a": 1, "b": 2}
	for k := range m { // want `trace change point \(maprange\): iteration order of map m; converges at .*maprange.go:7`
		println(k)
	}
}

// The key seen first differs between runs, and outlives the loop.
func first(m map[string]int) string {
	f := ""
	for k := range m { // want `\(maprange\)`
		f = k
		break
	}
	if f == "a" { // want `\(branch\): f depends on map iteration order at .*maprange.go:13`
		return f
	}
	return ""
}
