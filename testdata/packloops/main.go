// Command packloops runs loops of the shapes whose probes the instrumenter
// packs into words (docs/FORMAT.md, "Packed loops") and of shapes near
// them that it must leave alone, so that a test can check that a packed
// trace holds the same events as one recorded probe by probe.
package main

//go:generate divergo instrument ./...

import (
	"bytes"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// arms is a switch in a counting loop: four codes of two bits, one probe
// an iteration, many words.
func arms(n int) (a, b, c, d int) {
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			a++
		case 1:
			b += i
		case 2:
			c ^= i
		default:
			d--
		}
	}
	return
}

// collatz has two arms, one bit each, and no init statement.
func collatz(n uint64) int {
	s := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		s++
	}
	return s
}

// chain runs several probes an iteration, more on some iterations than on
// others, and continues early.
func chain(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			t++
			if i%5 == 0 {
				t += 2
				continue
			}
			t *= 2
		} else if i%3 == 1 {
			t--
		}
		if t > 1000 {
			t %= 97
		}
	}
	return t
}

// breaks leaves the loop from its body and has no condition.
func breaks(limit int) int {
	i := 0
	for {
		i += 7
		if i > limit {
			break
		}
		if i%2 == 0 {
			i++
		}
	}
	return i
}

// outer is not packed (a loop inside); its inner loop is, and writes its
// word each time it ends.
func outer(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if j%2 == 0 {
				t += j
			} else {
				t -= 1
			}
		}
	}
	return t
}

// counts has one probed block inside: its word only counts.
func counts(xs []int) int {
	t := 0
	for i := 0; i < len(xs); i++ {
		if xs[i] > 0 {
			t += xs[i]
		}
	}
	return t
}

// find returns from inside a packed loop: its word is written before
// the return.
func find(xs []int, want int) int {
	for i := 0; i < len(xs); i++ {
		if xs[i] == want {
			return i
		}
		if xs[i] < 0 {
			xs[i] = -xs[i]
		}
	}
	return -1
}

// rows leaves its inner, packed loop by continuing the outer one: the
// word is written before the continue.
func rows(n int) int {
	t := 0
row:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j > i {
				continue row
			}
			if (i+j)%3 == 0 {
				t++
			}
		}
		t--
	}
	return t
}

// spell calls functions of the standard library that call nothing back
// (strings.Builder's methods, strconv.Itoa: the analyzer's leaf calls), so
// its loop is packed all the same.
func spell(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			b.WriteString(strconv.Itoa(i))
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// ranges packs range loops over a slice (key and value), an integer of a
// named type, a pointer to an array (assigning to variables of the
// function) and a slice whose loop returns from inside; a range of one
// probed block only counts.
func ranges(xs []int, n int64, arr *[40]int) (int, int64) {
	t := 0
	for i, x := range xs {
		if x%2 == 0 {
			t += i
		} else {
			t -= x
		}
	}
	var s int64
	for j := range n {
		if j%3 == 0 {
			s += j
		} else if j%3 == 1 {
			continue
		}
		s--
	}
	var k, v int
	for k, v = range arr {
		if v > k {
			t++
		} else {
			t--
		}
	}
	t += k + v
	for _, x := range xs {
		if x < 0 {
			t++
		}
	}
	for i := range xs {
		if xs[i] == 17 && i > len(xs)/2 {
			return i, s
		}
		if xs[i] > 50 {
			t += 2
		}
	}
	return t, s
}

// leftAlone has loops that must not be packed: a labeled one, one that
// makes a closure, one that calls a function, one whose init statement
// spans two lines (moving it would move the lines after it), one that
// calls a method on its own variable (the method may keep its address,
// and each iteration has a variable of its own), a range over a string
// (its runes are decoded) and a range whose body declares its key again.
func leftAlone(n int) int {
	t := 0
outer:
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			continue outer
		}
		t += i
	}
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	for _, f := range fs {
		t += f()
	}
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			t += collatz(uint64(i + 1))
		}
	}
	for i, j := 0,
		n; i < j; i++ {
		if i%2 == 0 {
			t++
		}
	}
	for _, r := range "héllo" {
		if r > 'z' {
			t++
		}
	}
	for i := range n {
		i := i + 1
		if i%2 == 0 {
			t++
		}
	}
	for buf := (bytes.Buffer{}); buf.Len() < n; {
		if buf.Len()%2 == 0 {
			t++
		}
		buf.WriteByte('x')
	}
	return t
}

func main() {
	nflag := flag.Int("n", 1000, "iterations")
	flag.Parse()
	// A flag is the same input in every run: the functions would record
	// nothing at all (silent), and there would be no loop to pack. Handed
	// over a channel, n is shared data, and their loops are change points.
	nc := make(chan int, 1)
	nc <- *nflag
	n := new(int)
	*n = <-nc
	var wg sync.WaitGroup
	res := make([]int, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			res[g] = chain(*n + g)
		}(g)
	}
	a, b, c, d := arms(*n)
	fmt.Println("arms", a, b, c, d)
	fmt.Println("collatz", collatz(27), collatz(uint64(*n)))
	fmt.Println("breaks", breaks(*n))
	fmt.Println("outer", outer(*n/10))
	fmt.Println("counts", counts([]int{3, -1, 4, -1, 5, -9, 2, *n % 7}), counts(nil))
	fmt.Println("left alone", leftAlone(*n/10))
	fmt.Println("find", find([]int{4, -2, 9, -7, *n % 5}, 7), find([]int{1, 2}, 5))
	fmt.Println("rows", rows(*n/20))
	fmt.Println("spell", len(spell(*n)), spell(10))
	xs := make([]int, *n/10)
	var arr [40]int
	for i := range xs {
		xs[i] = i * 7919 % 101
		arr[i%40] = xs[i] % 45
	}
	fmt.Println("ranges", fmt.Sprint(ranges(xs, int64(*n/10), &arr)), fmt.Sprint(ranges(nil, 0, &arr)))
	z1, z2, z3, z4 := arms(0)
	fmt.Println("zero", z1, z2, z3, z4)
	wg.Wait()
	fmt.Println("chain", res[0], res[1])
}
