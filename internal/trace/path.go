package trace

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
)

// maxParentPath bounds the parent part of a spawn path. A deeper chain of
// spawns (a daisy chain of goroutines, each starting the next) would
// otherwise make path lengths grow with depth and their total with its
// square. Past the bound the parent's path is replaced by "~" and a hash of
// it: still the same in two runs with the same spawn structure.
const maxParentPath = 256

// MaxPathText is the widest spawn path a text report prints whole: paths
// grow with the nesting of go statements (Go's test/chan/powser1.go makes
// paths of 250 characters), and a line per goroutine should fit a screen.
const MaxPathText = 72

// ElidePath shortens a spawn path to at most width characters: the root up to
// its first step, an ellipsis, and as much of the end (the goroutine's own
// function and site) as fits. Reports for people print paths through it
// (MaxPathText); JSON keeps them whole.
func ElidePath(path string, width int) string {
	rs := []rune(path)
	if len(rs) <= width {
		return path
	}
	head := 0
	for head < len(rs) && rs[head] != '/' && rs[head] != '>' {
		head++
	}
	head = min(head+1, width/3)
	from := len(rs) - (width - head - 1)
	// The end starts at a step, when one begins in it.
	for j := from; j < len(rs)-1; j++ {
		if rs[j] == '/' {
			from = j
			break
		}
	}
	return string(rs[:head]) + "…" + string(rs[from:])
}

// namePaths gives every goroutine its spawn path (see the package comment).
// It walks up parent links without recursion, so a corrupt or very deep
// chain costs neither stack nor more than linear time.
func (r *Reader) namePaths() {
	orphans := r.orphanOrdinals()
	done := make(map[uint64]string, len(r.gs))
	var chain []*indexEntry
	for _, e := range r.gs {
		// Collect the unnamed ancestors of e, nearest first.
		chain = chain[:0]
		onChain := map[uint64]bool{}
		for x := e; x != nil; {
			if _, ok := done[x.ID]; ok || onChain[x.ID] {
				break
			}
			onChain[x.ID] = true
			chain = append(chain, x)
			if x.ID == 1 || x.Parent == 0 {
				break
			}
			x = r.byID[x.Parent]
		}
		// Name them from the farthest down.
		for i := len(chain) - 1; i >= 0; i-- {
			x := chain[i]
			var p string
			switch {
			case x.Test != "":
				p = x.Test
			case x.ID == 1:
				p = "main"
			case x.Parent == 0 && x.Creator != "":
				// Started by code divergo did not instrument: named by what
				// started it and what it ran (creator.go), and its place
				// among the goroutines named so, as a go statement's
				// children are by their ordinal, so that two runs pair them.
				p = fmt.Sprintf("%s #%d", r.orphanName(x), orphans[x.ID])
			case x.Parent == 0:
				// The same, of a trace that does not know the creator.
				p = fmt.Sprintf("?/%s#%d", r.funcName(x), orphans[x.ID])
			default:
				parent, ok := done[x.Parent]
				if !ok {
					parent = fmt.Sprintf("?g%d", x.Parent) // parent not in the trace, or a cycle
				}
				if len(parent) > maxParentPath {
					sum := sha256.Sum256([]byte(parent))
					parent = "~" + hex.EncodeToString(sum[:8])
				}
				sep := "/"
				if par := r.byID[x.Parent]; par != nil && par.Test != "" {
					// Test names hold slashes of their own (subtests):
					// what a test spawns is set apart from them.
					sep = " > "
				}
				p = fmt.Sprintf("%s%s%s@%s#%d", parent, sep, r.funcName(x), SiteName(r.graph, x.Site), x.Ordinal)
			}
			done[x.ID] = p
		}
		e.Path = done[e.ID]
	}
}

// orphanOrdinals numbers the goroutines started by code that is not
// instrumented (no parent, no test) among those of the same name (the
// function they started in, and what started them when known), in the
// order they were created: first those that ran a function literal their
// creator handed over, by its number (the order the creator evaluated the
// literals, runtime/handoff.go), then the others as far as the Go
// runtime's goroutine ids tell, then in the order they started (one
// goroutine's later streams), then by recorder id: a net/http server's
// handler goroutines are "net/http handler handle #1", "net/http handler
// handle #2" ... in every run. errgroup's workers, each given its item, are
// numbered in the order of their g.Go calls, not the order the scheduler
// ran them in nor that of their ids, which Go hands out in batches per
// processor, so that two runs pair the workers of one item (compare's
// matching does the same).
func (r *Reader) orphanOrdinals() map[uint64]int {
	type orphan struct {
		e    *indexEntry
		name string
	}
	var os []orphan
	for _, e := range r.gs {
		if e.ID != 1 && e.Parent == 0 && e.Test == "" {
			os = append(os, orphan{e, r.orphanName(e)})
		}
	}
	slices.SortFunc(os, func(a, b orphan) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(handed(a.e), handed(b.e)), cmp.Compare(a.e.GoID, b.e.GoID), cmp.Compare(a.e.Start, b.e.Start), cmp.Compare(a.e.ID, b.e.ID))
	})
	out := make(map[uint64]int, len(os))
	n := 0
	for i, o := range os {
		if i == 0 || o.name != os[i-1].name {
			n = 0
		}
		n++
		out[o.e.ID] = n
	}
	return out
}

// handed orders an orphan by the number of the literal it was handed, 0
// (none) last.
func handed(e *indexEntry) uint64 {
	if e.Ordinal == 0 {
		return math.MaxUint64
	}
	return uint64(e.Ordinal)
}

// orphanName is the name of a goroutine of no parent without its ordinal:
// by its creator when known (OrphanName), else "?/" and its function.
func (r *Reader) orphanName(e *indexEntry) string {
	if e.Creator != "" {
		return OrphanName(r.graph, e.Creator, e.FirstBlock, e.HasFirst)
	}
	return "?/" + r.funcName(e)
}

// funcName is the short name of the function e started in.
func (r *Reader) funcName(e *indexEntry) string {
	if !e.HasFirst {
		return "?"
	}
	b := r.graph.Block(int(e.FirstBlock))
	if b == nil {
		return "?"
	}
	if f := r.graph.Func(b.Func); f != nil {
		return ShortFuncName(f.Name)
	}
	return "?"
}

// ShortFuncName drops the package path from a full function name:
// "example.com/m/pool.worker" becomes "worker", "(*example.com/m.T).M"
// becomes "(*T).M".
func ShortFuncName(full string) string {
	// Methods: (*example.com/m.T).M or (example.com/m.T).M.
	if strings.HasPrefix(full, "(") {
		end := strings.IndexByte(full, ')')
		if end < 0 {
			return full
		}
		recv, star := strings.CutPrefix(full[1:end], "*")
		recv = dropPackage(recv)
		if star {
			recv = "*" + recv
		}
		return "(" + recv + full[end:]
	}
	return dropPackage(full)
}

// dropPackage removes the import path and package name in front of an
// identifier ("example.com/m.F$1" becomes "F$1"), leaving type arguments,
// which may hold import paths of their own, alone.
func dropPackage(s string) string {
	head, args := s, ""
	if i := strings.IndexByte(s, '['); i >= 0 {
		head, args = s[:i], s[i:]
	}
	if i := strings.LastIndexByte(head, '/'); i >= 0 {
		head = head[i+1:]
	}
	if i := strings.IndexByte(head, '.'); i >= 0 {
		head = head[i+1:]
	}
	return head + args
}

// SiteName is the file:line of site, the statement itself (a go
// statement, a lock, a send, ...), or "site N" when the graph has no such
// site.
func SiteName(g *tbb.Graph, site uint32) string {
	if s := g.Site(int(site)); s != nil && s.Pos.IsValid() {
		return s.Pos.FileLine()
	}
	return fmt.Sprintf("site%d", site)
}

// SitePos is the position of site, the statement itself; when the graph
// has no such site, the position of block, the block that holds it (a
// reader given events it did not decode itself, in tests).
func SitePos(g *tbb.Graph, site, block uint32) tbb.Pos {
	if s := g.Site(int(site)); s != nil && int(block) == s.Block {
		return s.Pos
	}
	if b := g.Block(int(block)); b != nil {
		return b.Pos
	}
	return tbb.Pos{}
}

// PathLess orders spawn paths as a reader expects: byte by byte, except
// that runs of digits compare as numbers ("main.go:9" before "main.go:10",
// "#2" before "#10"). A path is a prefix of its children's, so a parent
// comes before them.
func PathLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, nb := digits(a), digits(b)
			x, y := strings.TrimLeft(a[:na], "0"), strings.TrimLeft(b[:nb], "0")
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			if x != y {
				return x < y
			}
			if na != nb { // equal values: fewer leading zeros first
				return na < nb
			}
			a, b = a[na:], b[nb:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits is the length of the run of digits that s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}
