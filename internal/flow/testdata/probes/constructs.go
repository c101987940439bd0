// Package constructs holds the statement forms whose probe points are easy
// to get wrong. TestProbesCompile inserts a statement at every probe point
// and type-checks the result.
package constructs

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

var mu sync.Mutex

func ifElseReturn(x int) int {
	if x > 0 {
		return 1
	} else if x < 0 {
		return -1
	} else {
		return 0
	}
}

func ifPanics(x int) int {
	if x > 0 {
		panic("positive")
	} else {
		panic("not positive")
	}
}

func exits(x int) int {
	if x > 0 {
		os.Exit(1)
	}
	return x
}

func switchAllReturn(x int) string {
	switch {
	case x > 0:
		return "pos"
	case x < 0:
		return "neg"
	default:
		return "zero"
	}
}

func switchFallthrough(x int) (n int) {
	switch x {
	case 1, 2:
		n++
		mu.Lock()
		mu.Unlock()
		n += [3]int{1, 2, 3}[n%3]
		fallthrough
	case 3:
		n += 2
		if n > 2 {
			n--
		}
		fallthrough
	default:
		n *= 2
	}
	return n
}

func typeSwitch(v any) int {
	switch t := v.(type) {
	case int:
		return t
	case string, []byte:
		_ = t
	case nil:
	default:
		return -1
	}
	return 0
}

func selectAll(a, b chan int) int {
	select {
	case x := <-a:
		return x
	case b <- 1:
		return 1
	}
}

func selectLoop(a chan int, done chan struct{}) (sum int) {
	for {
		select {
		case x, ok := <-a:
			if !ok {
				return sum
			}
			sum += x
		case <-done:
			return
		default:
		}
	}
}

func server(ch chan int) {
	for {
		x := <-ch
		if x > 0 {
			fmt.Println(x)
		}
	}
}

func blockForever() {
	select {}
}

func labels(xs [][]int) (n int) {
outer:
	for i := range xs {
	inner:
		for j := 0; j < len(xs[i]); j++ {
			switch xs[i][j] {
			case 0:
				continue outer
			case 1:
				break inner
			case 2:
				break outer
			}
			n++
		}
	}
	return n
}

func gotos(x int) int {
	i := 0
loop:
	if i < x {
		i++
		goto loop
	}
	if x > 10 {
		goto end
	}
	{
	block:
		x--
		if x > 5 {
			goto block
		}
	}
end:
	return x
}

func labelAtEnd(x int) {
	if x > 0 {
		goto done
	}
	fmt.Println(x)
done:
}

func labeledSelect(a chan int) {
sel:
	select {
	case <-a:
		break sel
	default:
	}
}

func deferRecover(x int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("recovered")
		}
	}()
	if x > 0 {
		panic(x)
	}
	return nil
}

func points(a []int, i int) int {
	mu.Lock()
	v := a[i]
	mu.Unlock()
	go func() {
		mu.Lock()
		defer mu.Unlock()
		a[0] = v
	}()
	if w := a[i+1]; w > v {
		return w
	}
	for j := a[0]; j < a[1]; j++ {
		v += a[j]
	}
	return a[v%len(a)]
}

func rangeForms(m map[string]int, seq func(func(int) bool)) (n int) {
	for k, v := range m {
		if k == "" {
			continue
		}
		n += v
	}
	for range 3 {
		n++
	}
	for x := range seq {
		if x > 3 {
			break
		}
		n += x
	}
	return
}

func closures() func() int {
	if f := func() int { return 1 }; f() > 0 {
		return func() int {
			switch {
			}
			return 2
		}
	}
	return nil
}

func emptyBodies(x int) {
	if x > 0 {
	} else {
	}
	for x < 0 {
	}
	switch x {
	case 1:
	}
}

func forNoCond(x int) int {
	for {
		if x > 10 {
			break
		}
		x++
	}
	for {
		x--
		if x < 0 {
			return x
		}
	}
}
