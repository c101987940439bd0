//go:build !linux

package runtime

// bigWords returns a buffer of maxWords words, len maxWords-reserve, from
// the heap: mem_linux.go says why it keeps them outside where it can.
func bigWords() []uint32 { return make([]uint32, maxWords-reserve, maxWords) }

// dropWords gives back a buffer of bigWords that is no longer used.
func dropWords([]uint32) {}

// bigFrame returns nil: encode allocates the writer's frame.
func bigFrame() []byte { return nil }

// dropFrame gives back a frame of bigFrame.
func dropFrame([]byte) {}
