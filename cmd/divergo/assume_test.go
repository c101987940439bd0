package main

import (
	"fmt"
	"strings"
	"testing"
)

// setenvSrc changes its own environment while another goroutine reads it,
// in the order the schedule picks: the analyzer takes the environment to be
// the program's input, the same in both runs, which this program breaks.
const setenvSrc = `package main

import (
	"fmt"
	"os"
	"sync"
)

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		os.Setenv("MODE", "fast")
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		if os.Getenv("MODE") == "fast" {
			fmt.Println("fast")
		}
		mu.Unlock()
	}()
	wg.Wait()
}
`

// TestCheckNamesAssumption: where runs part at a branch on the environment,
// which the program itself changed while another goroutine read it, check
// reports the hole as breaking the assumption that both runs had the same
// input, and names the rule and what the analyzer says without it.
func TestCheckNamesAssumption(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments, builds and runs a program")
	}
	checkModule(t, "setenv", []byte(setenvSrc))
	status, out, errs := runCmd(t, "check", "-n", "12", "-seed", "1")
	if status != 1 {
		t.Fatalf("check: status %d, want 1 (a hole)\nstdout:\n%s\nstderr:\n%s", status, out, errs)
	}
	line := 1 + strings.Count(setenvSrc[:strings.Index(setenvSrc, "if os.Getenv")], "\n")
	for _, want := range []string{
		fmt.Sprintf("\n  main.go:%d in example.com/setenv.main$2\n", line),
		"\n    breaks an assumption: both runs had the same input: command line, flags, environment, GOMAXPROCS and NumCPU (docs/SOUNDNESS.md, \"the program's input\"; analyzer/inputs.go)\n",
		"\n      (rule inputs; without it the analyzer marks this statement: branch: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}
