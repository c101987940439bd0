// Command rangeindex indexes with range loops' keys: a counting key
// (over an integer, a slice, an array or a pointer to one) that the body
// leaves alone is the iteration's number and gets no outcome of its own;
// a key the body changes, and a string's or a map's, keep theirs.
package main

import "fmt"

func main() {
	vals := make([]int, 4)
	for j := range 4 {
		vals[j] = j * j
	}
	for i := range vals {
		vals[i]++
	}
	var arr [3]int
	for i := range &arr {
		arr[i] = vals[i]
	}
	for i := range arr {
		fmt.Println("arr", i, arr[i])
	}
	fmt.Println("vals", vals)

	// The body moves the key: its value is no longer the iteration's.
	for i := range 3 {
		i = 2 - i
		vals[i] += 10
	}
	for i := range 3 {
		p := &i
		*p = 3
		vals[i] += 100
	}
	fmt.Println("moved", vals)

	// A string's keys are byte offsets; a map's are its keys.
	s := "aé!"
	for i := range s {
		fmt.Println("byte", i, s[i])
	}
	m := map[int]string{1: "one"}
	counts := make([]int, 2)
	for k := range m {
		counts[k]++
	}
	fmt.Println("counts", counts)
}
