package spawn

func work(n int) {}

func start() {
	go work(1)  // want `trace change point \(spawn\): go statement starts work; converges at .*spawn.go:7`
	go func() { // want `\(spawn\): go statement starts a function literal`
		work(2)
	}()
}
