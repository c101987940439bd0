// divergo end-to-end copy of singleflight/singleflight_test.go (ExampleGroup) from golang.org/x/sync v0.24.0
// (module cache). Changes for the harness: package main instead of singleflight,
// an import of golang.org/x/sync/singleflight and Group written singleflight.Group, and a main function calling the example.
// License: BSD-3-Clause, Copyright The Go Authors; see the module's LICENSE.

// Copyright 2013 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"golang.org/x/sync/singleflight"
)

func ExampleGroup() {
	g := new(singleflight.Group)

	block := make(chan struct{})
	res1c := g.DoChan("key", func() (any, error) {
		<-block
		return "func 1", nil
	})
	res2c := g.DoChan("key", func() (any, error) {
		<-block
		return "func 2", nil
	})
	close(block)

	res1 := <-res1c
	res2 := <-res2c

	// Results are shared by functions executed with duplicate keys.
	fmt.Println("Shared:", res2.Shared)
	// Only the first function is executed: it is registered and started with "key",
	// and doesn't complete before the second function is registered with a duplicate key.
	fmt.Println("Equal results:", res1.Val.(string) == res2.Val.(string))
	fmt.Println("Result:", res1.Val)

	// Output:
	// Shared: true
	// Equal results: true
	// Result: func 1
}

func main() { ExampleGroup() }
