package compare

import (
	"fmt"

	"github.com/divergo/divergo/internal/trace"
)

// RunEnding is how one run ended, as its trace says (docs/FORMAT.md, "The
// run's ending").
type RunEnding struct {
	// Kind is "return", "exit", "panic", "fatal", "timeout", "killed"
	// (the process died without writing its end), "none" (the trace has
	// no end) or "unknown" (the trace does not say).
	Kind string `json:"kind"`
	// Code is the exit status: os.Exit's argument, 2 for a panic.
	Code int `json:"code"`
	// Goroutine is the recorder id of the goroutine that ended the run,
	// 0 when not known.
	Goroutine uint64 `json:"goroutine,omitempty"`
	Message   string `json:"message,omitempty"`
	// Text says it in words: "os.Exit(3)", "main returned".
	Text string `json:"text"`
}

// EndingOf is e as a report gives it.
func EndingOf(e trace.Ending) RunEnding {
	return RunEnding{Kind: e.Kind.String(), Code: e.Code, Goroutine: e.G, Message: e.Message, Text: e.String()}
}

// Endings is how each of the two runs ended.
type Endings struct {
	A RunEnding `json:"a"`
	B RunEnding `json:"b"`
}

// ordinary reports whether both runs ended the ordinary way, by main's
// return, or neither trace says: the text report then says nothing of it.
func (e *Endings) ordinary() bool {
	plain := func(k string) bool { return k == "return" || k == "unknown" }
	return plain(e.A.Kind) && plain(e.B.Kind)
}

// Line is the report's line on how the runs ended.
func (e *Endings) Line(na, nb string) string {
	if e.A.Text == e.B.Text {
		return fmt.Sprintf("both runs ended the same way: %s", e.A.Text)
	}
	return fmt.Sprintf("the runs ended differently: %s: %s; %s: %s", na, e.A.Text, nb, e.B.Text)
}
