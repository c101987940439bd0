package e2e

import (
	"strings"
	"testing"
)

// TestCrawlerSpawns runs testdata/crawler, whose main starts the crawl with
// go Crawl("https://golang.org/", 4, ...): the "//" in the URL is no
// comment, so the spawn is recorded like the crawl's own, and every
// goroutine of the run hangs under main.
func TestCrawlerSpawns(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "crawler")
	r := p.run(t)
	if got := strings.Count(r.stdout, "\n"); got != 5 {
		t.Errorf("the crawl found %d pages, want 5:\n%s", got, r.stdout)
	}
	r.checkTree(t)
	r.checkCalls(t)
	if roots := r.children("Crawl"); len(roots) != 1 {
		t.Fatalf("%d goroutines of main's go Crawl, want 1", len(roots))
	}
	// The root crawl and one goroutine per link of each page crawled.
	expect(t, "goroutines", len(r.gs), 1+1+2+3+2+2)
}
