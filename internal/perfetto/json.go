package perfetto

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"
)

// arg is one entry of an event's args: a string, an integer, a float or a
// bool, in the order given.
type arg struct {
	key  string
	kind byte // 's', 'i', 'f', 'b'
	s    string
	i    int64
	f    float64
}

func str(k, v string) arg       { return arg{key: k, kind: 's', s: v} }
func num(k string, v int64) arg { return arg{key: k, kind: 'i', i: v} }
func flt(k string, v float64) arg {
	return arg{key: k, kind: 'f', f: v}
}
func boolean(k string, v bool) arg {
	a := arg{key: k, kind: 'b'}
	if v {
		a.i = 1
	}
	return a
}

// event is one trace event. Times are nanoseconds; the encoder writes them as
// microseconds with three exact decimals, so that no float rounding can make
// a child slice poke out of its parent.
type event struct {
	ph       byte
	name     string
	cat      string
	pid, tid int
	ts       int64
	dur      int64 // 'X'
	id       uint64
	hasID    bool
	bp       byte // 'e' binds a flow end to the enclosing slice
	scope    byte // instants: 't', 'p' or 'g'
	noTid    bool // process metadata
	args     []arg
}

// encoder writes the JSON object form of a trace one event at a time.
type encoder struct {
	w     *bufio.Writer
	buf   []byte
	count int
	err   error
}

func newEncoder(w io.Writer) *encoder {
	e := &encoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.raw(`{"displayTimeUnit":"ns","traceEvents":[`)
	return e
}

func (e *encoder) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// close ends the event list, adds otherData and flushes.
func (e *encoder) close(other []arg) error {
	e.buf = append(e.buf[:0], "\n],\"otherData\":"...)
	e.buf = appendArgs(e.buf, other)
	e.buf = append(e.buf, "}\n"...)
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.err
}

func (e *encoder) emit(ev *event) {
	if e.err != nil {
		return
	}
	b := e.buf[:0]
	if e.count > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n{\"ph\":\""...)
	b = append(b, ev.ph)
	b = append(b, '"')
	if ev.name != "" || ev.ph != 'E' {
		b = append(b, ",\"name\":"...)
		b = appendString(b, ev.name)
	}
	if ev.cat != "" {
		b = append(b, ",\"cat\":"...)
		b = appendString(b, ev.cat)
	}
	b = append(b, ",\"pid\":"...)
	b = strconv.AppendInt(b, int64(ev.pid), 10)
	if !ev.noTid {
		b = append(b, ",\"tid\":"...)
		b = strconv.AppendInt(b, int64(ev.tid), 10)
	}
	// Metadata too: the format does not ask for it there, but parsers that
	// sort every event by ts (tracerbench's) break on one without.
	b = append(b, ",\"ts\":"...)
	b = appendMicros(b, ev.ts)
	if ev.ph == 'X' {
		b = append(b, ",\"dur\":"...)
		b = appendMicros(b, ev.dur)
	}
	if ev.hasID {
		b = append(b, ",\"id\":"...)
		b = strconv.AppendUint(b, ev.id, 10)
	}
	if ev.bp != 0 {
		b = append(b, ",\"bp\":\""...)
		b = append(b, ev.bp, '"')
	}
	if ev.scope != 0 {
		b = append(b, ",\"s\":\""...)
		b = append(b, ev.scope, '"')
	}
	if len(ev.args) > 0 {
		b = append(b, ",\"args\":"...)
		b = appendArgs(b, ev.args)
	}
	b = append(b, '}')
	e.buf = b
	_, e.err = e.w.Write(b)
	e.count++
}

// appendMicros writes ns nanoseconds as microseconds, exactly: 1234567 is
// 1234.567. Negative times are written as 0: the format wants none.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		ns = 0
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	f := ns % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

func appendArgs(b []byte, args []arg) []byte {
	b = append(b, '{')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, a.key)
		b = append(b, ':')
		switch a.kind {
		case 's':
			b = appendString(b, a.s)
		case 'i':
			b = strconv.AppendInt(b, a.i, 10)
		case 'f':
			b = appendFloat(b, a.f)
		case 'b':
			b = strconv.AppendBool(b, a.i != 0)
		}
	}
	return append(b, '}')
}

// appendFloat writes f as a JSON number; JSON has no NaN or infinity, so
// those become null.
func appendFloat(b []byte, f float64) []byte {
	if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
