// Command switchloop is issue 15's tight loop: a switch in a counting loop,
// one block probe per iteration and nothing else recorded, so that what
// recording costs is the probe and the buffers' way to the file.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
)

func main() {
	n := flag.Int("n", 25000000, "iterations")
	flag.Parse()
	var a, b, c, d int
	for i := 0; i < *n; i++ {
		switch i % 4 {
		case 0:
			a++
		case 1:
			b += i
		case 2:
			c ^= i
		default:
			d--
		}
	}
	fmt.Println(a, b, c, d)
}
