// Command crawler crawls a fake web of four pages in the shape of the Go
// tour's web crawler exercise: main starts the crawl with a go statement
// whose first argument is a URL constant, a string holding "//", and each
// page crawled starts a goroutine per link; a mutex guards the set of pages
// seen. The end-to-end test checks that every one of those go statements is
// recorded.
package main

import (
	"fmt"
	"slices"
	"sync"
)

// page is a page of the fake web: its body and its links.
type page struct {
	body  string
	links []string
}

var web = map[string]page{
	"https://golang.org/":         {"The Go Programming Language", []string{"https://golang.org/pkg/", "https://golang.org/cmd/"}},
	"https://golang.org/pkg/":     {"Packages", []string{"https://golang.org/", "https://golang.org/cmd/", "https://golang.org/pkg/fmt/"}},
	"https://golang.org/pkg/fmt/": {"Package fmt", []string{"https://golang.org/", "https://golang.org/pkg/"}},
	"https://golang.org/cmd/":     {"Command go", []string{"https://golang.org/", "https://golang.org/nowhere/"}},
}

// seen is the set of URLs fetched, guarded by its mutex.
type seen struct {
	mu    sync.Mutex
	found map[string]string
}

// visit reports whether url is new, and marks it seen.
func (s *seen) visit(url string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.found[url]; ok {
		return false
	}
	s.found[url] = ""
	return true
}

// Crawl fetches url and, depth permitting, crawls its links in goroutines
// of their own.
func Crawl(url string, depth int, s *seen, wg *sync.WaitGroup) {
	defer wg.Done()
	if depth <= 0 || !s.visit(url) {
		return
	}
	p, ok := web[url]
	if !ok {
		return
	}
	s.mu.Lock()
	s.found[url] = p.body
	s.mu.Unlock()
	for _, u := range p.links {
		wg.Add(1)
		go Crawl(u, depth-1, s, wg)
	}
}

func main() {
	s := &seen{found: map[string]string{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go Crawl("https://golang.org/", 4, s, &wg)
	wg.Wait()
	urls := make([]string, 0, len(s.found))
	for u := range s.found {
		urls = append(urls, u)
	}
	slices.Sort(urls)
	for _, u := range urls {
		fmt.Printf("%s %q\n", u, s.found[u])
	}
}
