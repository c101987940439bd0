//go:build amd64 || arm64

package runtime

import "unsafe"

// getg returns the Go runtime's g of the calling goroutine.
func getg() unsafe.Pointer

const haveGetg = true
