// Command echoserver is a TCP echo server with graceful shutdown on
// loopback, in the shape of the usual examples: the accept loop keeps the
// open connections in a map keyed by net.Conn (s.open[c] = true), a
// handler per connection echoes lines until its client hangs up, and
// Shutdown stops accepting and waits for the handlers. Its clients connect
// one after another, so every run does the same: two unperturbed runs take
// the same paths (e2e TestSamePathsShapes), although every connection's
// address, the map key, differs between them.
package main

//go:generate divergo instrument ./...

import (
	"bufio"
	"fmt"
	"net"
	"sync"
)

type server struct {
	ln   net.Listener
	quit chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	open   map[net.Conn]bool
	served int
}

func (s *server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			select {
			case <-s.quit:
				return
			default:
				continue
			}
		}
		s.mu.Lock()
		s.open[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go s.handle(c)
	}
}

func (s *server) handle(c net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.open, c)
		s.served++
		s.mu.Unlock()
		c.Close()
	}()
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		fmt.Fprintf(c, "%s\n", sc.Text())
	}
}

func (s *server) shutdown() int {
	close(s.quit)
	s.ln.Close()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	s := &server{ln: ln, quit: make(chan struct{}), open: map[net.Conn]bool{}}
	s.wg.Add(1)
	go s.serve()
	for i := range 4 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(c, "hello %d\n", i)
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			panic(err)
		}
		fmt.Print(line)
		c.Close()
	}
	left := s.shutdown()
	fmt.Println("left open", left, "served", s.served)
}
