// Command hashlines: a goroutine hashes a buffer twice after a deferred wg.Done
// while main waits; lines 18 and 19 spend the time, 17 none: one block.
package main

//go:generate divergo instrument ./...

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"sync"
)

func hashTwice(buf []byte, wg *sync.WaitGroup, out *[2][32]byte) {
	go func() {
		defer wg.Done()
		out[0] = sha256.Sum256(buf)
		out[1] = sha256.Sum256(buf[1:])
	}()
}

func main() {
	mb := flag.Int("mb", 64, "megabytes hashed on each of the two lines")
	flag.Parse()
	buf := bytes.Repeat([]byte("divergo"), *mb<<20/7)
	var wg sync.WaitGroup
	var out [2][32]byte
	wg.Add(1)
	hashTwice(buf, &wg, &out)
	wg.Wait()
	fmt.Printf("%x %x\n", out[0][:4], out[1][:4])
}
