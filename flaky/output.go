package flaky

import (
	"bufio"
	"regexp"
	"strings"
)

var failLine = regexp.MustCompile(`^(\s*)--- FAIL: (\S+) \(`)

// FailureMessages reads a test binary's output: the lines under each
// "--- FAIL: name" (what t.Error and t.Fatal printed, file:line first),
// and a panic's first line for the test that was running.
func FailureMessages(out string) map[string]string {
	msgs := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	cur, indent := "", 0
	var lines []string
	flush := func() {
		if cur != "" && len(lines) > 0 {
			msgs[cur] = strings.Join(lines, "; ")
		}
		cur, lines = "", nil
	}
	for sc.Scan() {
		l := sc.Text()
		if m := failLine.FindStringSubmatch(l); m != nil {
			flush()
			cur, indent = m[2], len(m[1])
			continue
		}
		if strings.HasPrefix(l, "panic: ") {
			flush()
			if _, ok := msgs["\x00panic"]; !ok {
				msgs["\x00panic"] = l
			}
			continue
		}
		if cur == "" {
			continue
		}
		trimmed := strings.TrimLeft(l, " \t")
		if len(l)-len(trimmed) <= indent || strings.HasPrefix(trimmed, "--- ") {
			flush()
			continue
		}
		lines = append(lines, trimmed)
	}
	flush()
	if p, ok := msgs["\x00panic"]; ok {
		delete(msgs, "\x00panic")
		if name := panickedTest(out); name != "" {
			msgs[name] = p
		}
	}
	return msgs
}

// panickedTest is the test a panic's output names ("--- FAIL: name" comes
// first when testing reports it).
func panickedTest(out string) string {
	i := strings.Index(out, "panic: ")
	if i < 0 {
		return ""
	}
	before := out[:i]
	if j := strings.LastIndex(before, "--- FAIL: "); j >= 0 {
		f := strings.Fields(before[j+len("--- FAIL: "):])
		if len(f) > 0 {
			return f[0]
		}
	}
	return ""
}
