package flaky

import (
	"bufio"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Output is what one run of a test binary printed, read by test: the
// messages of t.Log, t.Error, t.Fatal ... and a panic's first line. It
// reads both the binary's plain output (messages under "--- FAIL: name")
// and its -test.v output (messages after "=== RUN name", "=== CONT name"),
// where passing tests print their t.Log messages too.
type Output struct {
	msgs   []message
	panics map[string]string // test → the panic's first line
}

// message is one message as testing printed it.
type message struct {
	test string
	site string // file.go:line
	text string // "file.go:line: text", continuation lines joined by "\n"
}

var (
	testLine    = regexp.MustCompile(`^\s*(?:=== (?:RUN|CONT|NAME|PAUSE)|--- (?:FAIL|PASS|SKIP):)\s+(\S+)`)
	messageLine = regexp.MustCompile(`^(\s+)([^\s:]+\.go:\d+): `)
)

// ReadOutput reads the output of a test binary.
func ReadOutput(out string) *Output {
	o := &Output{panics: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	cur := ""
	inMsg, indent := false, 0 // the last line was part of a message of indentation indent
	timedOut := ""
	for sc.Scan() {
		l := sc.Text()
		trimmed := strings.TrimLeft(l, " \t")
		depth := len(l) - len(trimmed)
		switch m := testLine.FindStringSubmatch(l); {
		case m != nil:
			cur, inMsg = m[1], false
		case strings.HasPrefix(l, "panic: "):
			inMsg = false
			if strings.HasPrefix(l, "panic: test timed out") {
				timedOut = l // the tests running follow, one a line
				continue
			}
			if cur != "" {
				if _, ok := o.panics[cur]; !ok {
					o.panics[cur] = l
				}
			}
		case timedOut != "" && depth > 0 && trimmed != "" && !strings.HasPrefix(trimmed, "running tests"):
			// "\t\tTestX (10m0s)" under "running tests:"
			if name, _, ok := strings.Cut(trimmed, " "); ok {
				o.panics[name] = timedOut
			}
		case inMsg && depth > indent && trimmed != "":
			// A message's continuation: testify's "Error Trace:",
			// "Error:", ... stay with it.
			last := &o.msgs[len(o.msgs)-1]
			last.text += "\n" + strings.TrimRight(l[min(len(l), indent):], " ")
		default:
			inMsg = false
			if m := messageLine.FindStringSubmatch(l); m != nil && cur != "" {
				o.msgs = append(o.msgs, message{test: cur, site: m[2], text: trimmed})
				inMsg, indent = true, len(m[1])
			}
		}
		if depth == 0 && timedOut != "" && !strings.HasPrefix(l, "panic: ") && !strings.HasPrefix(l, "running tests") {
			timedOut = ""
		}
	}
	return o
}

// of says whether a message of test got is one of test name: its own or
// a subtest's.
func of(got, name string) bool { return got == name || strings.HasPrefix(got, name+"/") }

// Logged adds the sites of every message test name (or a subtest of it)
// printed to sites. Given a run the test passed, those messages are t.Log
// calls: a failure there is no failure.
func (o *Output) Logged(name string, sites map[string]bool) {
	for _, m := range o.msgs {
		if of(m.test, name) {
			sites[m.site] = true
		}
	}
}

// Failure is how one run of a test failed.
type Failure struct {
	// Where is the file:line of the first failing message, or the
	// panic's first line; "" when the test printed nothing that says.
	Where string `json:"where"`
	// Message is that message whole, file:line first, its continuation
	// lines after "\n".
	Message string `json:"message"`
}

// Failure is how test name failed in this run: its first message (or a
// subtest's) at a site not in logged, the sites it logged at in passing
// runs; or else its panic; or else its last message.
func (o *Output) Failure(name string, logged map[string]bool) Failure {
	var last *message
	for i, m := range o.msgs {
		if !of(m.test, name) {
			continue
		}
		if !logged[m.site] {
			return Failure{Where: m.site, Message: m.text}
		}
		last = &o.msgs[i]
	}
	for _, t := range slices.Sorted(maps.Keys(o.panics)) {
		if of(t, name) {
			return Failure{Where: o.panics[t], Message: o.panics[t]}
		}
	}
	if last != nil {
		return Failure{Where: last.site, Message: last.text}
	}
	return Failure{}
}

// Printed is everything test name (and its subtests) printed in this run,
// as one Failure at its first message: for a test that failed in every
// run, whose log lines no passing run tells from its failure.
func (o *Output) Printed(name string) Failure {
	var f Failure
	var texts []string
	for _, m := range o.msgs {
		if of(m.test, name) {
			if f.Where == "" {
				f.Where = m.site
			}
			texts = append(texts, m.text)
		}
	}
	f.Message = strings.Join(texts, "\n")
	for _, t := range slices.Sorted(maps.Keys(o.panics)) {
		if of(t, name) {
			if f.Where == "" {
				f.Where = o.panics[t]
			}
			f.Message = strings.TrimPrefix(f.Message+"\n"+o.panics[t], "\n")
			break
		}
	}
	return f
}
