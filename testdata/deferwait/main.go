// Command deferwait: a function serves four gets through an httptest
// server, with one more client still in flight when it returns, and closes
// the server with a deferred call, which waits for that client's
// connection: the wait inside Close is at the defer statement's line, not
// at the return's or the closing brace's.
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

func run() error {
	var mu sync.RWMutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.RLock()
		defer mu.RUnlock()
		time.Sleep(20 * time.Millisecond)
		fmt.Fprintln(w, "ok")
	}))
	defer srv.Close() // the deferred wait
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(srv.URL)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	go http.Get(srv.URL) // in its handler's sleep when Close runs
	time.Sleep(5 * time.Millisecond)
	return nil
}

func main() {
	fmt.Println(run())
}
