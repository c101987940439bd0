package main

import "sync"

func main() { // want `trace change point \(begin\): program begin: main.main starts the main goroutine; converges at return`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // want `\(spawn\)`
		defer wg.Done()
	}()
	wg.Wait()
}
