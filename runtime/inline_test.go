package runtime

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestProbeInlines checks that what an instrumented function calls on every
// block, outcome, entry and return inlines: the block and outcome probes (a
// call there would cost a tight loop its registers), Enter's and Exit's
// tests of DIVERGO_TRACE=off (PERFORMANCE.md, "Recording off"), and lookup,
// which enter makes at every function entry ("Function entry"). The probes
// inline only because their slow paths are called through a parameter
// (call, call64), and a reworded condition can tip any of them over the
// budget.
func TestProbeInlines(t *testing.T) {
	out, err := exec.Command("go", "build", "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	for _, fn := range []string{`\(\*G\)\.B`, `\(\*G\)\.PackWord`, `\(\*G\)\.PackCount`, `\(\*G\)\.Outcome`, `\(\*G\)\.Exit`, `Enter`, `Off`, `lookup`} {
		re := regexp.MustCompile(`(?m)^\S+: can inline ` + fn + `( |$)`)
		if !re.Match(out) {
			var why []string
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, "inline "+strings.ReplaceAll(fn, `\`, "")) {
					why = append(why, l)
				}
			}
			t.Errorf("%s does not inline: %s", strings.ReplaceAll(fn, `\`, ""), strings.Join(why, "; "))
		}
	}
}
