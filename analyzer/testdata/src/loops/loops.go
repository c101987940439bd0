package loops

var n int
var items []string

func count() int {
	sum := 0
	for i := 0; i < n; i++ { // want `trace change point \(loop\): n depends on package variable n read at .*loops.go:8; converges at .*loops.go:11`
		sum += i
	}
	return sum
}

func rangeShared() {
	for _, s := range items { // want `trace change point \(loop\): length of items depends on package variable items read at .*loops.go:15; converges at .*loops.go:17`
		println(s)
	}
}

func rangeChan(ch chan int) {
	for v := range ch { // want `trace change point \(loop\): range over channel ch receives shared data; converges at .*loops.go:23`
		println(v)
	}
}

func rangeInt() {
	for i := range n { // want `\(loop\): length of n depends on package variable n`
		println(i)
	}
}

// The number of iterations of the first loop decides how long s is.
func appendLoop() {
	var s []int
	for i := 0; i < n; i++ { // want `\(loop\)`
		s = append(s, i)
	}
	for range s { // want `\(loop\): length of s depends on package variable n`
	}
}

func setN(v int) { n = v }

// setItems makes items shared: other goroutines may call it.
func setItems(s []string) { items = s }
