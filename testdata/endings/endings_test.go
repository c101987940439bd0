package main

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestHang starts goroutines, each saying "started N" first, until the
// test binary's timeout kills it.
func TestHang(t *testing.T) {
	var mu sync.Mutex
	total := 0
	for n := 1; ; n++ {
		go func(n int) {
			work(n, "hang", &mu, &total)
		}(n)
		time.Sleep(200 * time.Microsecond)
	}
}

// TestQuick passes: the binary's timeout does not catch it.
func TestQuick(t *testing.T) {
	if fmt.Sprint(1) != "1" {
		t.Fatal("fmt")
	}
}
