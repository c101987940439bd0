package maprange

func keys() {
	m := map[string]int{"a": 1, "b": 2}
	for k := range m { // want `trace change point \(maprange\): iteration order of map m; converges at .*maprange.go:7`
		println(k)
	}
}
