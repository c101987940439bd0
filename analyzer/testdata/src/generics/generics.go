package generics

var limit int

func Max[T int | float64](xs []T) T { // want Max:"summary\\(p0,m0\\)"
	var m T
	for _, x := range xs { // want `\(loop\): length of xs depends on`
		if x > m { // want `\(branch\)`
			m = x
		}
	}
	return m
}

func under[T any](xs []T) int {
	n := 0
	for i := range xs {
		if i < limit { // want `\(branch\): limit depends on package variable limit`
			n++
		}
	}
	return n
}

func use() int { return under([]int{1, 2}) }

func setLimit(v int) { limit = v }
