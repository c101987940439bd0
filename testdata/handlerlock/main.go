// Command handlerlock: net/http handlers read a cache under an RLock while
// a refresher, started by main, rebuilds it holding the write lock (a loop
// and a sleep): the handlers' goroutines are started by net/http, outside
// the instrumented code, and their RLock waits are explained by the lines
// the refresher ran holding the lock.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

var (
	mu    sync.RWMutex
	cache = map[string]int{}
)

func refresh() {
	mu.Lock()
	s := 0
	for i := 0; i < 2_000_000; i++ { // the refresh's work
		s += i % 7
	}
	cache["k"] = s
	time.Sleep(3 * time.Millisecond) // the refresh's wait
	mu.Unlock()
}

func main() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.RLock() // the handler's wait
		v := cache["k"]
		mu.RUnlock()
		fmt.Fprintln(w, v)
	}))
	defer srv.Close()
	done := make(chan bool)
	go func() {
		for i := 0; i < 5; i++ {
			refresh()
			time.Sleep(5 * time.Millisecond)
		}
		done <- true
	}()
	var wg sync.WaitGroup
	for c := 0; c < 4; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				resp, err := http.Get(srv.URL)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}()
	}
	wg.Wait()
	<-done
	fmt.Println("done")
}
