// Command httpshutdown runs an http.Server on a loopback listener and shuts
// it down gracefully, in the shape of net/http's Server.Shutdown example:
// Serve runs in a goroutine of its own and reports its error on a channel,
// a handler answers from a mutex-guarded map, and main shuts the server
// down after its requests, made one at a time, and waits for Serve to
// return http.ErrServerClosed. Two unperturbed runs take the same paths
// (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

type store struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Path[1:]
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method == http.MethodPut {
		b, _ := io.ReadAll(r.Body)
		s.m[key] = string(b)
		fmt.Fprintln(w, "stored", key)
		return
	}
	v, ok := s.m[key]
	if !ok {
		http.NotFound(w, r)
		return
	}
	fmt.Fprintln(w, v)
}

func do(c *http.Client, method, url, body string) string {
	req, err := http.NewRequest(method, url, stringsReader(body))
	if err != nil {
		return err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

type reader struct{ s string }

func (r *reader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := copy(p, r.s)
	r.s = r.s[n:]
	return n, nil
}

func stringsReader(s string) io.Reader { return &reader{s} }

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := &http.Server{Handler: &store{m: map[string]string{}}}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String()
	c := &http.Client{}
	fmt.Print(do(c, http.MethodPut, url+"/a", "apple"))
	fmt.Print(do(c, http.MethodGet, url+"/a", ""))
	fmt.Print(do(c, http.MethodGet, url+"/b", ""))
	if err := srv.Shutdown(context.Background()); err != nil {
		fmt.Println("shutdown:", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		fmt.Println("serve:", err)
	}
	fmt.Println("closed")
}
