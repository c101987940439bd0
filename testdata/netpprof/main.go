// Command netpprof serves net/http/pprof, as many servers do, and asks it
// for a CPU profile while four workers hash, then prints how many
// goroutines it sees and whether the profile came: recorded by default,
// with divergo's CPU samples on, it must print what its plain build
// prints (the handler's pprof.StartCPUProfile is not refused, and no
// goroutine of divergo's is counted or listed).
package main

//go:generate divergo instrument ./...

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

// goroutines is what the program sees of its goroutines: their count, and
// the first line of the goroutine profile ("goroutine profile: total N").
func goroutines() string {
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	first, _, _ := strings.Cut(b.String(), "\n")
	return fmt.Sprintf("NumGoroutine %d, %s", runtime.NumGoroutine(), first)
}

func main() {
	fmt.Println("before:", goroutines())
	srv := httptest.NewServer(http.DefaultServeMux)
	var wg sync.WaitGroup
	sums := make([]byte, 4)
	stop := make(chan struct{})
	for id := 0; id < 4; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			buf := make([]byte, 1<<16)
			for {
				select {
				case <-stop:
					return
				default:
				}
				h := sha256.Sum256(buf)
				buf[0] = h[0]
				sums[id] = h[1]
			}
		}(id)
	}
	resp, err := http.Get(srv.URL + "/debug/pprof/profile?seconds=1")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	close(stop)
	wg.Wait()
	gzipped := len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b
	fmt.Printf("profile: status %d, gzipped %v, %s\n", resp.StatusCode, gzipped, resp.Header.Get("Content-Type"))
	srv.Close()
	http.DefaultClient.CloseIdleConnections()
	for i := 0; i < 200 && runtime.NumGoroutine() > 1; i++ {
		time.Sleep(10 * time.Millisecond) // the connections' goroutines end
	}
	fmt.Println("after:", goroutines())
	if len(os.Args) > 1 {
		os.WriteFile(os.Args[1], data, 0o644)
	}
}
