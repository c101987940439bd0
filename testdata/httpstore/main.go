// Command httpstore is a net/http server in the shape of the usual
// examples: a map guarded by an RWMutex, read and written by handlers that
// net/http runs on goroutines of its own, and clients on the loopback
// interface. Its handler goroutines are started by code divergo does not
// instrument, and so is the goroutine of a time.AfterFunc callback.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

type store struct {
	mu sync.RWMutex
	m  map[string]int
}

// incr adds one to the count of the key in the query.
func (s *store) incr(w http.ResponseWriter, r *http.Request) {
	k := r.URL.Query().Get("k")
	s.mu.Lock()
	s.m[k]++
	n := s.m[k]
	s.mu.Unlock()
	fmt.Fprint(w, n)
}

// get reads the count of the key in the query.
func (s *store) get(w http.ResponseWriter, r *http.Request) {
	k := r.URL.Query().Get("k")
	s.mu.RLock()
	n := s.m[k]
	s.mu.RUnlock()
	fmt.Fprint(w, n)
}

const clients, requests = 4, 5

func main() {
	s := &store{m: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/incr", s.incr)
	mux.HandleFunc("/get", s.get)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	base := "http://" + ln.Addr().String()

	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			key := fmt.Sprintf("k%d", c%2)
			for i := 0; i < requests; i++ {
				path := "/get"
				if i%2 == 0 {
					path = "/incr"
				}
				resp, err := http.Get(base + path + "?k=" + key)
				if err != nil {
					panic(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}(c)
	}
	wg.Wait()
	srv.Close()
	fired := make(chan bool)
	time.AfterFunc(time.Millisecond, func() { fired <- true })
	<-fired
	var keys []string
	for k := range s.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s=%d", k, s.m[k]))
	}
	fmt.Println(strings.Join(out, " "))
}
