package trace

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

// EndKind is how a recorded run ended (docs/FORMAT.md, "The run's
// ending").
type EndKind uint8

const (
	// EndUnknown: the trace does not say: it is older than format
	// version 7, or its writer did not know (a trace written by a tool
	// rather than recorded).
	EndUnknown EndKind = iota
	// EndReturn: main.main returned (a test binary: its TestMain).
	EndReturn
	// EndExit: the program called os.Exit with Ending.Code.
	EndExit
	// EndPanic: a panic nothing recovered, in goroutine Ending.G; the
	// process exited with status 2.
	EndPanic
	// EndFatal: a fatal error of the Go runtime, told from what Go copied
	// to the crash file as it died (Ending.Message: its words, when that
	// tells them).
	EndFatal
	// EndTimeout: a test binary's -test.timeout expired.
	EndTimeout
	// EndKilled: the process died without writing its end (SIGKILL, a
	// signal, os.Exit in code divergo does not see, a fatal error it could
	// not tell), and the trace was completed from its arena.
	EndKilled
	// EndNone: the trace has no end: its run is still going, or died and
	// left no arena to complete it from (Reader.Truncated).
	EndNone
)

var endNames = [...]string{EndUnknown: "unknown", EndReturn: "return", EndExit: "exit", EndPanic: "panic",
	EndFatal: "fatal", EndTimeout: "timeout", EndKilled: "killed", EndNone: "none"}

// String is the kind's name in JSON output: "return", "exit", "panic",
// "fatal", "timeout", "killed", "none", "unknown".
func (k EndKind) String() string {
	if int(k) < len(endNames) {
		return endNames[k]
	}
	return "EndKind(" + strconv.Itoa(int(k)) + ")"
}

// Ending is how a recorded run ended.
type Ending struct {
	Kind EndKind
	// Code is the exit status: os.Exit's argument, 2 for a panic or a
	// test timeout, 0 for a return.
	Code int
	// G is the recorder id of the goroutine that ended the run (called
	// os.Exit, panicked, returned from main); 0 when none is known.
	G uint64
	// Message is Go's words, when divergo could read them: a fatal
	// error's ("all goroutines are asleep - deadlock!"), a panic's value,
	// a signal's line ("SIGQUIT: quit").
	Message string
}

// String says how the run ended, in words: "main returned", "os.Exit(3)",
// "panic", "killed (no end record)".
func (e Ending) String() string {
	var s string
	switch e.Kind {
	case EndReturn:
		s = "main returned"
	case EndExit:
		s = fmt.Sprintf("os.Exit(%d)", e.Code)
	case EndPanic:
		s = "panic"
	case EndFatal:
		s = "fatal error"
	case EndTimeout:
		s = "test timeout"
	case EndKilled:
		s = "killed (no end record: SIGKILL, a signal, a fatal error or an os.Exit divergo does not see; completed from its arena)"
	case EndNone:
		s = "did not end in the trace (no end record: still running, or died without an arena to complete it)"
	default:
		s = "not recorded"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// maxMessageBytes bounds an ending's message.
const maxMessageBytes = 1 << 10

// appendEnding appends e as the index's last field (version 7).
func appendEnding(b []byte, e Ending) []byte {
	b = append(b, byte(e.Kind))
	b = binary.AppendVarint(b, int64(e.Code))
	b = binary.AppendUvarint(b, e.G)
	msg := e.Message[:min(len(e.Message), maxMessageBytes)]
	b = binary.AppendUvarint(b, uint64(len(msg)))
	return append(b, msg...)
}

// parseEnding decodes the ending at the end of an index body.
func parseEnding(b []byte) (Ending, error) {
	d := decoder{b: b}
	e := Ending{Kind: EndKind(d.byte())}
	code := d.varint()
	e.G = d.uvarint()
	e.Message = string(d.bytes(maxMessageBytes, "ending message"))
	if d.err != nil {
		return Ending{}, fmt.Errorf("run's ending: %w", d.err)
	}
	if e.Kind >= EndNone {
		return Ending{}, fmt.Errorf("run's ending: unknown kind %d", e.Kind)
	}
	if code != int64(int32(code)) {
		return Ending{}, fmt.Errorf("run's ending: exit status %d out of range", code)
	}
	if len(d.rest()) > 0 {
		return Ending{}, fmt.Errorf("run's ending: %d bytes after it", len(d.rest()))
	}
	e.Code = int(code)
	return e, nil
}

// SetEnding records how the run ended, written with the index by Close;
// without it the index says EndUnknown.
func (w *Writer) SetEnding(e Ending) { w.ending = e }

// Ending returns how the run ended: what its index says, EndNone when the
// trace has no index, EndUnknown before format version 7.
func (r *Reader) Ending() Ending {
	if r.truncated {
		return Ending{Kind: EndNone}
	}
	return r.ending
}
