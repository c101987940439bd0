package trace

// TestResult is how a test ended, recorded with the final chunk of its
// root goroutine (docs/FORMAT.md, "Tests").
type TestResult uint8

// Test results. A test whose goroutine has no result did not end before
// the trace did: the process died (a timeout, another test's panic) or the
// trace was cut short.
const (
	TestPass TestResult = iota + 1
	TestFail
	TestSkip
	TestPanic
	TestTimeout // running when the binary's -test.timeout was about to end it
)

var resultNames = [...]string{TestPass: "pass", TestFail: "fail", TestSkip: "skip", TestPanic: "panic", TestTimeout: "timeout"}

func (r TestResult) valid() bool { return r >= TestPass && r <= TestTimeout }

// String is "pass", "fail", "skip", "panic", "timeout", or "unfinished"
// for 0.
func (r TestResult) String() string {
	if r.valid() {
		return resultNames[r]
	}
	if r == 0 {
		return "unfinished"
	}
	return "result(?)"
}
