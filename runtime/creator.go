package runtime

import (
	"bytes"
	goruntime "runtime"
	"sync"
)

// What started an orphan, a goroutine that code divergo did not instrument
// started (net/http's handler goroutines, errgroup's, time.AfterFunc's):
// the Go runtime knows, and says it at the end of the goroutine's stack
// trace, "created by net/http.(*Server).Serve in goroutine 1". The stack
// trace is taken once per orphan, when it first enters instrumented code,
// and the creator goes into its first chunk (docs/FORMAT.md, "Creators"),
// which names it ("net/http handler (*store).incr #12",
// internal/trace/creator.go). A linkname into the Go runtime (g.gopc, the
// go statement's pc) would cost less, but ties divergo to one Go version's
// layout of g; runtime.Stack is public, and an orphan's stack is short
// when it first enters instrumented code: BenchmarkCreatorOf. A goroutine
// that enters instrumented code again (net/http's connection goroutine
// runs a handler per request of a kept-alive connection) starts another
// stream, and takes its creator from a cache of the last goroutines' (the
// Go runtime never gives two goroutines one id).

// maxCreatorStack bounds the stack trace read for the creator: a stack
// deeper than this loses it ("created by" comes last), and the goroutine
// is named as before creators were recorded.
const maxCreatorStack = 64 << 10

// maxCreators bounds the cache: past it, it starts again empty.
const maxCreators = 4096

var creators struct {
	mu sync.Mutex
	m  map[uint64]string // by goid
}

// creatorFor returns creatorOf for the calling goroutine, whose id is goid,
// from the cache when the goroutine had a stream before.
func creatorFor(goid uint64) string {
	creators.mu.Lock()
	c, ok := creators.m[goid]
	creators.mu.Unlock()
	if ok {
		return c
	}
	c = creatorOf()
	creators.mu.Lock()
	if creators.m == nil || len(creators.m) >= maxCreators {
		creators.m = make(map[uint64]string)
	}
	creators.m[goid] = c
	creators.mu.Unlock()
	return c
}

// creatorOf returns the function that started the calling goroutine, as
// the Go runtime names it, or "" when it cannot tell.
func creatorOf() string {
	var small [4 << 10]byte
	buf := small[:]
	for {
		n := goruntime.Stack(buf, false)
		if n < len(buf) || len(buf) >= maxCreatorStack {
			return parseCreator(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parseCreator finds the creator in a goroutine's stack trace: the
// function of its last "created by" line, without " in goroutine N".
func parseCreator(st []byte) string {
	const key = "\ncreated by "
	i := bytes.LastIndex(st, []byte(key))
	if i < 0 {
		return ""
	}
	line := st[i+len(key):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if j := bytes.Index(line, []byte(" in goroutine ")); j >= 0 {
		line = line[:j]
	}
	return string(bytes.TrimSpace(line))
}
