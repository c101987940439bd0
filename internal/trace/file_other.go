//go:build !unix

package trace

// Elsewhere the checks before opening are what there is.
const (
	oNoFollow = 0
	oNonBlock = 0
)
