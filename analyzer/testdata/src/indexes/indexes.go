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

// words is written only while the package initializes, but its elements
// can be written through any copy of the slice: reading them reads shared
// data.
var words = []string{"a", "b", "c"}

func firstIsA(j int) bool {
	w := words[j%3]
	if w == "a" { // want `\(branch\): w depends on memory through a pointer read`
		return true
	}
	return false
}

func setWord(s string) { ws := words; ws[0] = s }

// grown is reassigned after initialization: its length is shared.
var grown = []int{1}

func grow() { grown = append(grown, 2) }

func lastGrown(s []int) int {
	return s[len(grown)-1] // want `\(index\): index .* depends on package variable grown`
}
