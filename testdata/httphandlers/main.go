// Command httphandlers is an HTTP server with handlers on a ServeMux, in
// the shape of net/http's examples, served by an httptest server: a
// greeting handler, and a counter handler that bumps a mutex-guarded count.
// The client makes its requests one at a time, each answered before the
// next: two unperturbed runs take the same paths (e2e
// TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	fmt.Fprintf(w, "count %d\n", n)
}

func hello(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "world"
	}
	fmt.Fprintf(w, "hello, %s\n", name)
}

func get(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", hello)
	mux.Handle("/count", &counter{})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, path := range []string{"/hello", "/hello?name=gopher", "/count", "/count", "/missing"} {
		fmt.Print(get(srv.URL + path))
	}
}
