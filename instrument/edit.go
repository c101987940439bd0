package instrument

import (
	"bytes"
	"fmt"
	"sort"
)

// An edit replaces src[start:end] with text; start == end is an insertion.
type edit struct {
	start, end int
	text       string
	prio       int // orders insertions at the same offset: lower first
	seq        int // then the order they were made
}

// editBuffer collects edits to one source file and applies them in one
// pass, as cmd/cover does: editing the original bytes instead of printing
// an AST keeps every line where it was, so one //line header is enough to
// keep positions.
type editBuffer struct {
	src   []byte
	edits []edit
	err   error // the first bad range, reported by bytes
}

func newEditBuffer(src []byte) *editBuffer { return &editBuffer{src: src} }

// insert adds text at offset off.
func (b *editBuffer) insert(off, prio int, text string) {
	if off < 0 || off > len(b.src) {
		if b.err == nil {
			b.err = fmt.Errorf("insertion at %d outside the %d bytes of the file", off, len(b.src))
		}
		return
	}
	b.edits = append(b.edits, edit{start: off, end: off, text: text, prio: prio, seq: len(b.edits)})
}

// replace replaces src[start:end] with text. The newlines of the replaced
// bytes are kept (appended to text) so that no line moves.
func (b *editBuffer) replace(start, end int, text string) {
	if start > end || start < 0 || end > len(b.src) {
		if b.err == nil {
			b.err = fmt.Errorf("edit range [%d,%d) outside the %d bytes of the file", start, end, len(b.src))
		}
		return
	}
	if n := bytes.Count(b.src[start:end], []byte("\n")); n > 0 {
		text += string(bytes.Repeat([]byte("\n"), n))
	}
	b.edits = append(b.edits, edit{start: start, end: end, text: text, seq: len(b.edits)})
}

// bytes applies the edits. Overlapping replacements are refused: they mean
// two rewrites claimed the same source text, and applying either would
// silently drop the other.
func (b *editBuffer) bytes() ([]byte, error) {
	if b.err != nil {
		return nil, b.err
	}
	es := append([]edit(nil), b.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		x, y := es[i], es[j]
		if x.start != y.start {
			return x.start < y.start
		}
		xi, yi := x.start == x.end, y.start == y.end
		if xi != yi {
			return xi // insertions before a replacement starting at the same offset
		}
		if x.prio != y.prio {
			return x.prio < y.prio
		}
		return x.seq < y.seq
	})
	var out bytes.Buffer
	out.Grow(len(b.src) + len(es)*32)
	pos := 0
	for i, e := range es {
		if e.start < pos {
			return nil, fmt.Errorf("overlapping edits at offsets %d and %d", es[i-1].start, e.start)
		}
		out.Write(b.src[pos:e.start])
		out.WriteString(e.text)
		pos = e.end
	}
	out.Write(b.src[pos:])
	return out.Bytes(), nil
}
