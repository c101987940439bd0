package waittime

import (
	"fmt"
	"os"
)

// The expansion example of Meira's "Expanding waiting time": a releases b,
// b releases c, c releases a. The wait of a at line 13 is explained by b's
// block at line 22 and c's at line 32, less a's own line 12; a's first
// block (line 10) is on both paths and removed.
func ExampleAnalyze() {
	rep, err := Analyze(expansionTrace(), Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	site := rep.Sites[1]
	fmt.Println(site.Pos, site.Op, FormatNs(site.TotalNs))
	for _, st := range site.Classes[0].Steps {
		fmt.Println(stepLine(st, false))
	}
	// Output:
	// fig4.go:13 recv 70.0 ms
	// + fig4.go:22 in main/b@fig4.go:3#2  50.0 ms
	// + fig4.go:32 in main/c@fig4.go:3#3  50.0 ms
	// - fig4.go:12 in main/a@fig4.go:3#1  30.0 ms
}

// Two runs side by side: the same trace twice has every class "same".
func ExampleDiff() {
	rep, _ := Analyze(expansionTrace(), Options{})
	d, _ := Diff(rep, rep, 0)
	d.WriteText(os.Stdout, 1)
	// Output:
	// waiting: A 250 ms in 3 waits, B 250 ms in 3 waits
	//
	// 1. fig4.go:13  recv (chan)  A 70.0 ms (1)  B 70.0 ms (1)  0 ns
	//    same     A 70.0 ms (1)  B 70.0 ms (1)
	//      + fig4.go:22 in main/b@fig4.go:3#2  50.0 ms
	//      ... 2 more
	//
	// 2. fig4.go:21  recv (chan)  A 60.0 ms (1)  B 60.0 ms (1)  0 ns
	//    same     A 60.0 ms (1)  B 60.0 ms (1)
	//      (steps larger than the wait cancel out: +100 ms, -40.0 ms)
	//      + fig4.go:10 in main/a@fig4.go:3#1  100 ms
	//      ... 1 more
	//
	// 3. fig4.go:31  recv (chan)  A 120 ms (1)  B 120 ms (1)  0 ns
	//    same     A 120 ms (1)  B 120 ms (1)
	//      + fig4.go:10 in main/a@fig4.go:3#1  100 ms
	//      ... 2 more
}
