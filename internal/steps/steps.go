// Package steps places things in a goroutine's recorded stream by step, so
// that the package that finds them (compare) and the ones that draw them
// (the Perfetto export) need not know each other.
//
// A goroutine's steps, counted from 0, are, in stream order: every block it
// executed, probed or implied (internal/replay puts the implied ones back),
// each call and each return, as the replay's steps of its block and exit
// events; and each outcome, spawn and sync event, one step each. Clocks and
// perturbations are no steps. compare counts them as it corresponds two
// runs; a drawer that replays the goroutine the same way meets step k at the
// same place of the program, even at a block without a probe.
package steps

import "math"

// ToEnd as a Span's To runs it to the end of the goroutine.
const ToEnd = math.MaxInt64

// Span is the steps From to To−1 of one goroutine. It is empty when From ==
// To: a place between two steps.
type Span struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Mark is a labelled span of one goroutine's steps, for a drawer to show
// over the time those steps took (a divergent section, a goroutine of one
// run only).
type Mark struct {
	Goroutine uint64 // the goroutine's id in its trace
	Span
	Label string // what it is, for people: "divergent: branch at main.go:13"
	Class string // what it is, for filters: "divergent", "divergent,unflagged"
	Args  []Arg  // details, in the order to show them
}

// Arg is one detail of a mark. Value is a string, an int64, a float64 or a
// bool.
type Arg struct {
	Key   string
	Value any
}
