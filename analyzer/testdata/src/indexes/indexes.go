package indexes

var i int
var key string

func arr() int {
	a := [4]int{1, 2, 3, 4}
	return a[i%4] // want `trace change point \(index\): index i depends on package variable i read at .*indexes.go:8; converges at return`
}

func slice(s []int) {
	x := s[i] // want `\(index\): index i depends on package variable i`
	println(x)
}

func lookup(m map[string]int) int {
	return m[key] // want `\(index\): index key depends on package variable key`
}

func local(s []int) int {
	j := 2
	return s[j]
}

func set(v int, k string) { i, key = v, k }
