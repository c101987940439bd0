// This file lets clock.go declare nanotime without a body (go:linkname).
