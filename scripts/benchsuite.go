//go:build ignore

// Benchsuite measures divergo test over whole test suites against plain
// go test -race, in the same run: per module, go test -race -count=N
// ./... and divergo test -n N ./..., each cold and then warm, with its
// wall time, its peak memory and the disk it took (docs/PERFORMANCE.md,
// "Whole suites: time, memory and disk").
//
// Each module is fetched by version through the module proxy into a
// temporary directory (scripts/internal/realmod). Cold is a build cache
// of its own, empty (the standard library compiled too, with -race for
// go test), and for divergo no .divergo in the module; warm is the same
// command again right after, with both kept. With -cache DIR both use
// that build cache and leave it (cold is then the module's first build
// in its directory, the standard library taken from the cache), and its
// size is not counted in the disk.
// Peak memory is the largest resident set of any one process of the
// command (getrusage's maxrss over the waited-for tree: the go command,
// the compiler, a test binary, divergo itself). Disk is the peak, sampled
// every second, of what the build cache, the temporary directory and the
// module's directory hold beyond what they held at the start: the
// traces, the instrumented copies and the compiled packages. The tests'
// outcomes are not compared here (scripts/equivalence.go does that).
//
// Usage, from the repository root:
//
//	go run scripts/benchsuite.go [-n 4] [-cache DIR] [-work DIR] module@version...
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/divergo/divergo/scripts/internal/realmod"
)

var (
	runs = flag.Int("n", 4, "runs of each test: go test -count=N, divergo test -n N")
	work = flag.String("work", "", "directory for the modules, caches and traces (default: a temporary one, removed)")
	kept = flag.String("cache", "", "build cache to use and keep (default: an empty one per command, removed after)")
)

// measure is one command's cost.
type measure struct {
	wall    time.Duration
	peakRSS int64 // bytes
	disk    int64 // bytes, peak above the start
	failed  bool
}

func main() {
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/benchsuite.go [-n N] [-cache DIR] [-work DIR] module@version...")
		os.Exit(2)
	}
	dir := *work
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "divergo-benchsuite-"); err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	dir, _ = filepath.Abs(dir)
	divergo := filepath.Join(dir, "divergo")
	if out, err := exec.Command("go", "build", "-o", divergo, "./cmd/divergo").CombinedOutput(); err != nil {
		fatal(fmt.Errorf("building divergo (run from the repository root): %v\n%s", err, out))
	}
	fmt.Printf("n=%d, %d cores, load %s at the start\n", *runs, runtime.NumCPU(), load())
	fmt.Println("module | command | cold wall | warm wall | cold peak RSS | warm peak RSS | cold disk | warm disk")
	status := 0
	for _, mv := range flag.Args() {
		if err := module(dir, divergo, mv); err != nil {
			fmt.Printf("%s: %v\n", mv, err)
			status = 1
		}
	}
	fmt.Printf("load %s at the end\n", load())
	os.Exit(status)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchsuite:", err)
	os.Exit(2)
}

// module measures both commands cold and warm on one module@version and
// prints their rows and ratios.
func module(dir, divergo, mv string) error {
	mod, err := realmod.Fetch(dir, mv)
	if err != nil {
		return err
	}
	count := fmt.Sprint(*runs)
	cmds := []struct {
		name string
		args []string
	}{
		{"go test -race -count=" + count, []string{"go", "test", "-race", "-count=" + count, "./..."}},
		{"divergo test -n " + count, []string{divergo, "test", "-n", count, "./..."}},
	}
	var got [2][2]measure // [command][cold, warm]
	for i, c := range cmds {
		cache := filepath.Join(dir, "gocache")
		tmp := filepath.Join(dir, "tmp")
		watched := []string{cache, tmp, mod}
		removed := []string{cache, tmp, filepath.Join(mod, ".divergo")}
		if *kept != "" {
			cache, watched, removed = *kept, watched[1:], removed[1:]
		}
		for _, d := range removed {
			if err := os.RemoveAll(d); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(tmp, 0o777); err != nil {
			return err
		}
		env := append(realmod.Env(), "GOCACHE="+cache, "TMPDIR="+tmp)
		for k := range 2 {
			got[i][k] = run(mod, env, watched, c.args)
		}
		if *kept == "" {
			os.RemoveAll(cache)
		}
		os.RemoveAll(tmp)
		cold, warm := got[i][0], got[i][1]
		fmt.Printf("%s | %s%s | %s | %s | %s | %s | %s | %s\n", mv, c.name, failedNote(cold, warm),
			cold.wall.Round(time.Second), warm.wall.Round(time.Second),
			mb(cold.peakRSS), mb(warm.peakRSS), mb(cold.disk), mb(warm.disk))
	}
	ratio := func(a, b int64) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f×", float64(a)/float64(b))
	}
	p, d := got[0], got[1]
	fmt.Printf("%s | divergo/plain | %s | %s | %s | %s | %s | %s\n", mv,
		ratio(int64(d[0].wall), int64(p[0].wall)), ratio(int64(d[1].wall), int64(p[1].wall)),
		ratio(d[0].peakRSS, p[0].peakRSS), ratio(d[1].peakRSS, p[1].peakRSS),
		ratio(d[0].disk, p[0].disk), ratio(d[1].disk, p[1].disk))
	return nil
}

func failedNote(ms ...measure) string {
	for _, m := range ms {
		if m.failed {
			return " (some test failed)"
		}
	}
	return ""
}

// run runs args in dir, sampling the size of the watched directories
// every second, and returns its cost.
func run(dir string, env, watched, args []string) measure {
	base := sizes(watched)
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if s := sizes(watched) - base; s > peak.Load() {
				peak.Store(s)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = nil, nil // the counts are what is measured; equivalence.go reads the outcomes
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	close(stop)
	<-done
	if s := sizes(watched) - base; s > peak.Load() {
		peak.Store(s)
	}
	m := measure{wall: wall, disk: peak.Load(), failed: err != nil}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.peakRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	return m
}

// sizes is the bytes the files below dirs hold (a file seen twice, as
// the module below the work directory, counts once).
func sizes(dirs []string) int64 {
	seen := map[string]bool{}
	var total int64
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || seen[p] {
				return nil
			}
			seen[p] = true
			if fi, err := e.Info(); err == nil {
				total += fi.Size()
			}
			return nil
		})
	}
	return total
}

func mb(b int64) string { return fmt.Sprintf("%d MB", b>>20) }

func load() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
