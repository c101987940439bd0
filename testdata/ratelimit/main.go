// Command ratelimit serves its requests at most one per tick of a
// time.Ticker, in the shape of Go by Example's rate limiting: each request
// waits for the next tick, then is served. How long each waits is the
// clock's, but what is served is the input's: two unperturbed runs take
// the same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"time"
)

func serve(req int) string {
	if req%3 == 0 {
		return fmt.Sprintf("request %d: fizz", req)
	}
	return fmt.Sprintf("request %d", req)
}

func main() {
	limiter := time.NewTicker(2 * time.Millisecond)
	defer limiter.Stop()
	for req := 1; req <= 6; req++ {
		<-limiter.C
		fmt.Println(serve(req))
	}
}
