// Command errfetch is an errgroup fetcher against an httptest server, in
// the shape of errgroup's own example: the k-th g.Go fetches page k and
// stores what it got in results[k]; at most three fetch at a time. Which
// fetch finishes first is the schedule's, but what each does is decided by
// its k: two unperturbed runs take the same paths (e2e
// TestSamePathsShapes) once each fetch of one run is paired with the fetch
// of the same page in the other, by the order g.Go started them and not by
// goroutine id, which Go hands out in batches per processor.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"golang.org/x/sync/errgroup"
)

func page(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintf(w, "page %s\n", strings.TrimPrefix(r.URL.Path, "/"))
}

func fetch(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func main() {
	srv := httptest.NewServer(http.HandlerFunc(page))
	defer srv.Close()

	results := make([]string, 8)
	var g errgroup.Group
	g.SetLimit(3)
	for k := range results {
		g.Go(func() error {
			body, err := fetch(fmt.Sprintf("%s/%d", srv.URL, k))
			if err != nil {
				return err
			}
			results[k] = strings.TrimSpace(body)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r)
	}
}
