package runtime

import (
	"fmt"
	"sync"
	"testing"
)

func TestParseCreator(t *testing.T) {
	tests := []struct{ stack, want string }{
		{"goroutine 7 [running]:\nmain.(*store).incr(...)\n\t/m/main.go:20 +0x1d\nnet/http.(*conn).serve(0xc000)\n\t/go/src/net/http/server.go:2102 +0x5f\ncreated by net/http.(*Server).Serve in goroutine 1\n\t/go/src/net/http/server.go:3454 +0x485\n",
			"net/http.(*Server).Serve"},
		{"goroutine 9 [running]:\nmain.main.func1()\n\t/m/main.go:31 +0x1d\ncreated by golang.org/x/sync/errgroup.(*Group).Go in goroutine 1\n\t/x/errgroup.go:93 +0x50\n",
			"golang.org/x/sync/errgroup.(*Group).Go"},
		{"goroutine 5 [running]:\nf()\n\t/m/f.go:3\ncreated by main.main\n\t/m/main.go:9 +0x25\n", "main.main"},                                          // before Go 1.21
		{"goroutine 1 [running]:\nmain.main()\n\t/m/main.go:9 +0x25\n", ""},                                                                              // main: no creator
		{"goroutine 6 [running]:\nf()\n\t/m/f.go:3\ncreated by example.com/lib.(*Pool[...]).start in goroutine 1", "example.com/lib.(*Pool[...]).start"}, // cut after the line
		{"", ""},
	}
	for _, tt := range tests {
		if got := parseCreator([]byte(tt.stack)); got != tt.want {
			t.Errorf("parseCreator(%.40q...) = %q, want %q", tt.stack, got, tt.want)
		}
	}
}

// TestCreatorOf: the creator of a goroutine, from deep in it too, where the
// stack trace does not fit the first buffer.
func TestCreatorOf(t *testing.T) {
	var got, deep string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = creatorOf()
		deep = atDepth(400, creatorOf)
	}()
	wg.Wait()
	const want = "github.com/divergo/divergo/runtime.TestCreatorOf"
	if got != want || deep != want {
		t.Errorf("creatorOf() = %q, and 400 frames deeper %q; want %q", got, deep, want)
	}
}

// atDepth calls f depth frames deeper than its caller.
//
//go:noinline
func atDepth(depth int, f func() string) string {
	if depth == 0 {
		return f()
	}
	return atDepth(depth-1, f)
}

// BenchmarkCreatorOf is what recording an orphan's creator costs, once per
// orphan when it first enters instrumented code: a stack trace of the
// goroutine, at the depth of a net/http handler's first instrumented frame
// (about 8 frames below the goroutine's start) and deeper.
func BenchmarkCreatorOf(b *testing.B) {
	for _, depth := range []int{8, 32} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				atDepth(depth, func() string {
					b.ResetTimer()
					for b.Loop() {
						if creatorOf() == "" {
							b.Error("no creator")
							break
						}
					}
					return ""
				})
			}()
			<-done
		})
	}
}

// BenchmarkCreatorAgain is the creator of a goroutine's later stream, from
// the cache.
func BenchmarkCreatorAgain(b *testing.B) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		goid := curGoid()
		want := creatorFor(goid)
		b.ResetTimer()
		for b.Loop() {
			if creatorFor(goid) != want {
				b.Error("another creator")
				break
			}
		}
	}()
	<-done
}
