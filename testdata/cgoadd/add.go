package main

// static int add(int a, int b) { return a + b; }
import "C"

// addC adds a and b in C.
func addC(a, b int) int {
	return int(C.add(C.int(a), C.int(b)))
}
