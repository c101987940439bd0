package flow

import (
	"fmt"
	"go/token"
	"strings"
)

// Format describes f one block per line, for tests and debugging:
//
//	2 if.then open@4:9 [3] tcp=branch@4 cp=3 exit
//
// that is: index, kind, probe mode and line:column (or "implied"),
// successors, TCP kinds with their lines, the CP block ("return" for the
// function's return), "cp" when a TCP converges here, "exit" when the block
// can leave the function.
func (f *Func) Format(fset *token.FileSet) string {
	var sb strings.Builder
	lc := func(p token.Pos) string {
		if fset == nil || !p.IsValid() {
			return "-"
		}
		pos := fset.Position(p)
		return fmt.Sprintf("%d:%d", pos.Line, pos.Column)
	}
	for _, b := range f.Blocks {
		fmt.Fprintf(&sb, "%d %s ", b.Index, b.Kind)
		if b.Probed() {
			fmt.Fprintf(&sb, "%s@%s", b.Probe.Mode, lc(b.Probe.Pos))
		} else {
			sb.WriteString("implied")
		}
		sb.WriteString(" [")
		for i, s := range b.Succs {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprint(&sb, s.Index)
		}
		sb.WriteByte(']')
		for _, t := range b.TCPs() {
			fmt.Fprintf(&sb, " tcp=%s@%d", t.Kind, t.Pos.Line)
		}
		if b.TCP != nil {
			if b.CP == nil {
				sb.WriteString(" cp=return")
			} else {
				fmt.Fprintf(&sb, " cp=%d", b.CP.Index)
			}
		}
		if b.IsCP {
			sb.WriteString(" cp")
		}
		if b.Exit {
			sb.WriteString(" exit")
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
