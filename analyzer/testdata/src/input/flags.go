package input

import (
	"flag"
	"os"
	"runtime"
)

// The command line, the environment and the machine's processors are the
// same in two runs of one program on one input and machine: no change
// points, and nothing computed from them is shared.

var depth = flag.Int("depth", 4, "depth")

var verbose bool

func init() { flag.BoolVar(&verbose, "v", false, "verbose") }

func flags() {
	n := flag.Int("n", 10, "size")
	name := flag.String("name", "", "name")
	flag.Parse()
	for i := 0; i < *n; i++ {
		println(i)
	}
	if *name != "" && verbose {
		println(*name)
	}
	for d := 0; d < *depth; d++ {
		println(d)
	}
	if flag.NArg() > 0 && flag.Arg(0) == "all" {
		println()
	}
	for _, a := range flag.Args() {
		if a == "x" {
			println(a)
		}
	}
}

func flagSet() {
	fs := flag.NewFlagSet("tool", flag.ExitOnError)
	n := fs.Int("n", 1, "count")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return
	}
	for i := 0; i < *n; i++ {
		println(i)
	}
}

func env() {
	if os.Getenv("DEBUG") != "" {
		println()
	}
	if v, ok := os.LookupEnv("N"); ok && v == "1" {
		println()
	}
}

func procs() int {
	parts := runtime.GOMAXPROCS(0) * 4
	sum := 0
	for p := 0; p < parts; p++ {
		sum += p
	}
	if runtime.NumCPU() > 1 {
		sum++
	}
	return sum
}

// A flag's value is input, but a goroutine's writes to a variable are not:
// the variable a flag writes loses nothing of its sharing.
var count int

func bump(done chan bool) {
	flag.IntVar(&count, "count", 0, "count")
	go func() { // want `\(spawn\)`
		count++
		done <- true
	}()
	if count > 0 { // want `\(branch\): count depends on package variable count`
		println()
	}
}

// A flag's pointer captured by a goroutine still points to the flag's
// value.
func capturedFlag(done chan bool) {
	n := flag.Int("m", 3, "count")
	flag.Parse()
	go func() { // want `\(spawn\)`
		for i := 0; i < *n; i++ {
			println(i)
		}
		done <- true
	}()
	for i := 0; i < *n; i++ {
		println(i)
	}
}
