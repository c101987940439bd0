package trace

import (
	"strings"

	"github.com/divergo/divergo/internal/tbb"
)

// Names of goroutines that code divergo did not instrument started (a
// handler net/http runs, errgroup's, time.AfterFunc's): no go statement of
// the program names them, so they are named by what started them (their
// creator, as the Go runtime names it, recorded once per goroutine) and
// what they run (the function of their first recorded block), then numbered
// in the order they started: "net/http handler (*store).incr #12",
// "errgroup.Go at main.go:31 #7". Two runs of the program give the same
// names where they started the same goroutines in the same order, which is
// how they are paired.

// knownCreators names the creators whose goroutines run the user's code
// by what the user wrote, not by the library's function that started them.
var knownCreators = []struct{ prefix, label string }{
	{"net/http.(*Server).Serve", "net/http handler"},
	{"net/http.(*http2serverConn).", "net/http handler"},
	{"golang.org/x/net/http2.(*serverConn).", "net/http handler"},
	{"golang.org/x/sync/errgroup.(*Group).Go", "errgroup.Go"},
	{"golang.org/x/sync/errgroup.(*Group).TryGo", "errgroup.TryGo"},
	{"time.goFunc", "time.AfterFunc"},
	{"sync.(*WaitGroup).Go", "WaitGroup.Go"},
}

// CreatorLabel is how a name shows a creator: a label for those that run
// the user's handlers or callbacks, otherwise the creator's function with
// its package's name and without its import path
// ("example.com/lib.(*Pool).start" is "lib.(*Pool).start").
func CreatorLabel(creator string) string {
	for _, k := range knownCreators {
		if strings.HasPrefix(creator, k.prefix) {
			return k.label
		}
	}
	head, args := creator, ""
	if i := strings.IndexByte(creator, '['); i >= 0 {
		head, args = creator[:i], creator[i:]
	}
	if i := strings.LastIndexByte(head, '/'); i >= 0 {
		head = head[i+1:]
	}
	return head + args
}

// OrphanName is the name, without its ordinal, of a goroutine that creator
// started in code that is not instrumented and whose first block is first:
// the creator's label and what the goroutine runs, its function, or, for a
// function literal of the program, "at" the literal's file and line. It is
// "" when the creator is not known.
func OrphanName(g *tbb.Graph, creator string, first uint32, hasFirst bool) string {
	if creator == "" {
		return ""
	}
	what := "?"
	if hasFirst {
		if b := g.Block(int(first)); b != nil {
			if f := g.Func(b.Func); f != nil {
				what = ShortFuncName(f.Name)
				if strings.Contains(what, "$") && f.Pos.IsValid() {
					what = "at " + f.Pos.FileLine()
				}
			}
		}
	}
	return CreatorLabel(creator) + " " + what
}
