package selects

func two(a, b chan int) {
	select { // want `trace change point \(select\): select chooses among 2 cases that can be ready together; converges at .*selects.go:7`
	case <-a:
	case <-b:
	}
}

func withDefault(a chan int) int {
	select { // want `\(select\): select chooses among 2 cases`
	case v := <-a:
		return v
	default:
	}
	return 0
}

func one(a chan int) {
	select {
	case <-a:
	}
}
