package input

import (
	"reflect"
	"unsafe"
)

// Addresses differ between runs: a pointer used as a number is input.

func address(p *int) {
	if uintptr(unsafe.Pointer(p))%64 == 0 { // want `\(branch\): .*depends on a pointer's address`
		println()
	}
}

func addressKey(p *int, m map[uintptr]int) int {
	return m[uintptr(unsafe.Pointer(p))] // want `\(index\): index .*a pointer's address`
}

func reflected(p *int) {
	if reflect.ValueOf(p).Pointer() > 1<<20 { // want `\(branch\): .*a pointer's address \(reflect.Value.Pointer\)`
		println()
	}
}

// The pointer itself, compared or used as a key, is the same object in
// every run: no change point.
func identity(p, q *int, m map[*int]int) int {
	if p == q {
		return 0
	}
	return m[p]
}
