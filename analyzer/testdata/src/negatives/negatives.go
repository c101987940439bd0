package negatives

import "os"

const size = 10

func constLoop() int {
	s := 0
	for i := 0; i < size; i++ {
		s += i
	}
	return s
}

func param(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func callsParam() int { return param(5) + param(size) }

func localBranch() int {
	a, b := 3, 4
	if a < b {
		return a
	}
	return b
}

func localMap() int {
	m := map[string]int{"a": 1, "b": 2}
	v := m["a"]
	if v > 0 {
		return v
	}
	return m["b"]
}

func args() {
	if len(os.Args) > 1 {
		println(os.Args[1])
	}
	for _, a := range os.Args {
		println(a)
	}
}

func localSlice() int {
	s := make([]int, 5)
	for i := range s {
		s[i] = i
	}
	t := 0
	for _, v := range s {
		if v > 2 {
			t += v
		}
	}
	return t
}

// Written only while the package initializes: read-only afterwards.
var table = [4]int{1, 2, 3, 4}
var maxLen int

func init() { maxLen = 64 }

func tables(i int) int {
	if maxLen > 32 {
		return table[i%4]
	}
	return 0
}

func callsTables() int { return tables(3) }

// Called only from a variable initializer with constant data.
func makeTable(n int) []int {
	t := make([]int, 0, n)
	for i := 0; i < n; i++ {
		t = append(t, i)
	}
	return t
}

var squares = makeTable(8)

// A slice written only while the package initializes: its header (length,
// array) is read-only, so an index computed from its length is not shared.
var words = []string{"the", "quick", "brown", "fox"}

func pickWord(x uint32) string {
	return words[int(x%uint32(len(words)))]
}
