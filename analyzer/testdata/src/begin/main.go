package main

func main() { // want `trace change point \(begin\): program begin: main.main starts the main goroutine; converges at return`
	useMethods()
	done := make(chan bool)
	go func() { // want `\(spawn\)`
		done <- true
	}()
	<-done
}
