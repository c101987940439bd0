package flow

import (
	"strings"
	"testing"
)

// Each case is a function f; line 3 of the file is f's first line. cps
// lists every TCP as kind@line->CP block kind@line (or "return"); probes
// lists every block as kind:mode@line:col.
var postDomCases = []struct {
	name   string
	src    string
	cps    string
	probes string
}{
	{
		name: "early return",
		src: `func f(x int) int {
	if x > 0 {
		return 1
	}
	x++
	return x
}`,
		cps:    "branch@4->return",
		probes: "entry:open@3:19 if.then:open@4:11 if.done:after@6:3",
	},
	{
		name: "nested else if chain",
		src: `func f(x int) int {
	if x > 0 {
		x = 1
	} else if x < -5 {
		x = 2
	} else if x < -3 {
		return 0
	} else {
		x = 3
	}
	return x
}`,
		cps:    "branch@4->return branch@6->return branch@8->return",
		probes: "entry:open@3:19 if.then:open@4:11 if.else:implied if.then:open@6:19 if.else:implied if.then:open@8:19 if.else:open@10:9 if.done:after@12:3",
	},
	{
		name: "if without else at end",
		src: `func f(x int) {
	if x > 0 {
		if x > 1 {
			println()
		}
	}
}`,
		cps:    "branch@4->if.done@8 branch@5->if.done@7",
		probes: "entry:open@3:15 if.then:open@4:11 if.then:open@5:12 if.done:after@7:4 if.done:after@8:3",
	},
	{
		name: "panic",
		src: `func f(x int) int {
	if x < 0 {
		panic("negative")
	}
	if x > 9 {
		panic("big")
	} else {
		x--
	}
	return x
}`,
		cps:    "branch@4->return branch@7->return",
		probes: "entry:open@3:19 if.then:open@4:11 if.done:after@6:3 if.then:open@7:11 if.else:open@9:9 if.done:after@11:3",
	},
	{
		name: "goto",
		src: `func f(x int) int {
again:
	x++
	if x < 10 {
		goto again
	}
	if x > 20 {
		goto out
	}
	x = 0
out:
	return x
}`,
		cps:    "branch@6->if.done@9 branch@9->label@14",
		probes: "entry:open@3:19 label:before@5:2 if.then:open@6:12 if.done:after@8:3 if.then:open@9:12 if.done:after@11:3 label:before@14:2",
	},
	{
		name: "labeled break and continue",
		src: `func f(xs [][]int) int {
	n := 0
outer:
	for i := 0; i < len(xs); i++ {
		for _, x := range xs[i] {
			if x < 0 {
				continue outer
			}
			if x == 0 {
				break outer
			}
			n++
		}
	}
	return n
}`,
		cps:    "loop@6->for.done@17 index@7->range.loop@7 loop@7->for.done@17 branch@8->for.done@17 branch@11->for.done@17",
		probes: "entry:open@3:24 label:implied for.loop:implied for.body:open@6:31 range.loop:implied range.body:open@7:27 if.then:open@8:13 if.done:after@10:5 if.then:open@11:14 if.done:after@13:5 range.done:after@15:4 for.post:implied for.done:after@16:3",
	},
	{
		name: "loop without exit",
		src: `func f(ch chan int) {
	for {
		x := <-ch
		if x > 0 {
			println(x)
		} else {
			println(-x)
		}
	}
}`,
		cps:    "branch@6->if.done@10",
		probes: "entry:open@3:21 for.loop:implied for.body:open@4:6 if.then:open@6:12 if.else:open@8:10 if.done:after@10:4",
	},
	{
		name: "nested endless loops",
		src: `func f(ch chan int) {
	for {
		if <-ch > 0 {
			for {
				println()
			}
		}
	}
}`,
		cps:    "branch@5->return",
		probes: "entry:open@3:21 for.loop:implied for.body:open@4:6 if.then:open@5:15 for.loop:implied for.body:open@6:8 if.done:after@9:4",
	},
	{
		name: "defer recover",
		src: `func f(x int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = nil
		}
	}()
	if x > 0 {
		panic(x)
	}
	return nil
}`,
		cps:    "branch@9->return",
		probes: "entry:open@3:27 if.then:open@9:11 if.done:after@11:3",
	},
	{
		name: "select with default",
		src: `func f(a, b chan int) int {
	select {
	case x := <-a:
		return x
	case b <- 1:
	default:
		println()
	}
	return 0
}`,
		cps:    "select@4->return",
		probes: "entry:open@3:27 select.case:open@5:15 select.case:open@7:13 select.case:open@8:9 select.done:after@10:3",
	},
	{
		name: "select without default in loop",
		src: `func f(a, b chan int) {
	for {
		select {
		case <-a:
			return
		case v, ok := <-b:
			if !ok {
				return
			}
			println(v)
		}
	}
}`,
		cps:    "select@5->return branch@9->return",
		probes: "entry:open@3:23 for.loop:implied for.body:open@4:6 select.case:open@6:11 select.case:open@8:20 if.then:open@9:11 if.done:after@11:5 select.done:after@13:4",
	},
	{
		name: "select forever",
		src: `func f(a chan int) {
	if len(a) > 0 {
		select {}
	}
	println()
}`,
		cps:    "branch@4->return select@5->return",
		probes: "entry:open@3:20 if.then:open@4:16 if.done:after@6:3",
	},
	{
		name: "switch with fallthrough",
		src: `func f(x int) int {
	switch x {
	case 1, 2:
		x++
		fallthrough
	case 3:
		x--
	default:
		x = 0
	case 4:
		return 4
	}
	return x
}`,
		cps:    "switch@4->return",
		probes: "entry:open@3:19 switch.next:implied switch.next:implied switch.case:open@5:11 switch.case:open@8:8 switch.case:open@10:9 switch.case:open@12:8 switch.done:after@14:3",
	},
	{
		name: "type switch",
		src: `func f(v any) int {
	switch t := v.(type) {
	case int, int8:
		return 1
	case string:
		_ = t
	}
	return 0
}`,
		cps:    "switch@4->return",
		probes: "entry:open@3:19 switch.next:implied switch.case:open@5:16 switch.case:open@7:13 switch.done:after@9:3",
	},
	{
		name: "points",
		src: `func f(mu interface{ Lock() }, a []int, i int) int {
	mu.Lock()
	x := a[i]
	if y := a[x]; y > 0 {
		go println()
	}
	return a[i+1]
}`,
		cps:    "lock@4->split@5 index@5->split@6 branch@6->if.done@9 index@6->if.done@9 spawn@7->if.done@9 index@9->return",
		probes: "entry:open@3:52 split:before@5:2 split:before@6:2 if.then:open@6:22 if.done:after@8:3",
	},
	{
		name: "labeled switch and goto label",
		src: `func f(x int) int {
loop:
	switch {
	case x > 3:
		x--
		goto loop
	case x < 0:
		break loop
	}
L:
	if x > 100 {
		return x
	}
	x *= 2
	goto L
}`,
		cps:    "switch@5->switch.next@9 branch@13->if.then@14",
		probes: "entry:open@3:19 label:implied switch.next:implied switch.case:open@6:12 switch.case:open@9:12 switch.done:after@11:3 label:before@13:2 if.then:open@13:13 if.done:after@15:3",
	},
}

func TestPostDominators(t *testing.T) {
	for _, tc := range postDomCases {
		t.Run(tc.name, func(t *testing.T) {
			fset, f := buildSrc(t, tc.src)
			gotCPs := strings.Join(cps(fset, f), " ")
			gotProbes := strings.Join(probes(fset, f), " ")
			if gotCPs != tc.cps || gotProbes != tc.probes {
				t.Errorf("got\n\t\tcps:    %q,\n\t\tprobes: %q,\nwant\n\t\tcps:    %q,\n\t\tprobes: %q,\n%s",
					gotCPs, gotProbes, tc.cps, tc.probes, f.Format(fset))
			}
		})
	}
}
