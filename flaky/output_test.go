package flaky

import (
	"strings"
	"testing"
)

// TestOutputPlain reads a test binary's plain output: messages under
// "--- FAIL" lines, subtests by their own lines, continuation lines kept
// with their message, and a panic given to the test testing named before
// it.
func TestOutputPlain(t *testing.T) {
	o := ReadOutput(`--- FAIL: TestA (0.00s)
    a_test.go:12: got 2, want 1
    a_test.go:13: and more
--- FAIL: TestB (0.00s)
    --- FAIL: TestB/size=4 (0.00s)
        b_test.go:30: Count(4) = 3
            over two lines
--- PASS: TestC (0.00s)
--- FAIL: TestP (0.00s)
panic: boom [recovered]
	panic: boom

goroutine 7 [running]:
FAIL
`)
	for _, tc := range []struct {
		test string
		want Failure
	}{
		{"TestA", Failure{"a_test.go:12", "a_test.go:12: got 2, want 1"}},
		{"TestB", Failure{"b_test.go:30", "b_test.go:30: Count(4) = 3\n    over two lines"}},
		{"TestB/size=4", Failure{"b_test.go:30", "b_test.go:30: Count(4) = 3\n    over two lines"}},
		{"TestP", Failure{"panic: boom [recovered]", "panic: boom [recovered]"}},
		{"TestC", Failure{}},
	} {
		if got := o.Failure(tc.test, nil); got != tc.want {
			t.Errorf("%s: failure %q, want %q", tc.test, got, tc.want)
		}
	}
}

// verbose is the -test.v output of two runs of TestF, which logs at line
// 4 and fails at line 9 or 12; testify's message runs over several lines.
const (
	verbosePass = `=== RUN   TestF
    f_test.go:4: starting
--- PASS: TestF (0.00s)
=== RUN   TestG
--- PASS: TestG (0.00s)
PASS
`
	verboseFail = `=== RUN   TestF
    f_test.go:4: starting
    f_test.go:12: 
        	Error Trace:	/m/f_test.go:12
        	Error:      	Not equal: 
        	            	expected: 1
        	            	actual  : 2
        	Test:       	TestF
    f_test.go:13: after
--- FAIL: TestF (0.00s)
=== RUN   TestG
=== PAUSE TestG
=== CONT  TestG
    g_test.go:7: late
--- FAIL: TestG (0.00s)
FAIL
`
)

// TestOutputVerbose: a site that printed in a passing run is a t.Log, not
// the failure; testify's message is kept whole.
func TestOutputVerbose(t *testing.T) {
	logged := map[string]bool{}
	ReadOutput(verbosePass).Logged("TestF", logged)
	if len(logged) != 1 || !logged["f_test.go:4"] {
		t.Errorf("logged %v, want f_test.go:4", logged)
	}
	o := ReadOutput(verboseFail)
	want := Failure{"f_test.go:12", "f_test.go:12: \n    \tError Trace:\t/m/f_test.go:12\n    \tError:      \tNot equal:\n    \t            \texpected: 1\n    \t            \tactual  : 2\n    \tTest:       \tTestF"}
	if got := o.Failure("TestF", logged); got != want {
		t.Errorf("TestF: failure\n%q\nwant\n%q", got, want)
	}
	if got := o.Failure("TestF", nil); got.Where != "f_test.go:4" {
		t.Errorf("TestF with nothing logged: failure at %q, want the first message, f_test.go:4", got.Where)
	}
	if got := o.Failure("TestG", logged); got.Where != "g_test.go:7" {
		t.Errorf("TestG: failure at %q, want g_test.go:7 (after === CONT)", got.Where)
	}
}

// TestOutputTimeout: a timeout names the tests it ended.
func TestOutputTimeout(t *testing.T) {
	o := ReadOutput(`=== RUN   TestSlow
panic: test timed out after 1s
	running tests:
		TestSlow (1s)

goroutine 17 [running]:
`)
	if got := o.Failure("TestSlow", nil); got.Where != "panic: test timed out after 1s" {
		t.Errorf("TestSlow: failure %q", got)
	}
}

// TestOutputPrinted: with no passing run to tell log lines from the
// failure, everything the test printed is its message.
func TestOutputPrinted(t *testing.T) {
	got := ReadOutput(verboseFail).Printed("TestF")
	if got.Where != "f_test.go:4" || !strings.HasPrefix(got.Message, "f_test.go:4: starting\nf_test.go:12: \n    \tError Trace:") || !strings.HasSuffix(got.Message, "\nf_test.go:13: after") {
		t.Errorf("Printed(TestF) = %q", got)
	}
	p := ReadOutput("=== RUN   TestP\n--- FAIL: TestP (0.00s)\npanic: boom [recovered]\n").Printed("TestP")
	if p != (Failure{"panic: boom [recovered]", "panic: boom [recovered]"}) {
		t.Errorf("Printed(TestP) = %q", p)
	}
}
