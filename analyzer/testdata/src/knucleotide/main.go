// Command knucleotide is in the shape of the benchmarks game's Go
// k-nucleotide: a DNA sequence (here made by a math/rand source with a
// constant seed, its length from a flag), frequencies and counts of
// k-mers, one goroutine per question, answers over channels in order.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

func dna(n int) string {
	// A generator of its own with a constant seed: the same sequence in
	// every run, no change point.
	r := rand.New(rand.NewSource(42))
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte("ACGT"[r.Intn(4)])
	}
	return b.String()
}

func count(data string, k int) map[string]int {
	counts := make(map[string]int)
	// Not flagged: seq comes from a strings.Builder that dna keeps to
	// itself, written with a flag's length and a constant seed's draws.
	top := len(data) - k
	for i := 0; i <= top; i++ {
		counts[data[i:i+k]]++
	}
	return counts
}

type kNuc struct {
	name  string
	count int
}

func frequencies(data string, k int) string {
	var kn []kNuc
	total := 0
	// The order of a map's iteration, and so the sort's input, really
	// differs between runs.
	for s, c := range count(data, k) { // want `\(maprange\): iteration order`
		kn = append(kn, kNuc{s, c})
		total += c
	}
	sort.Slice(kn, func(i, j int) bool {
		if kn[i].count != kn[j].count { // want `\(branch\): kn\[i\]\.count depends on captured variable kn` `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
			return kn[i].count > kn[j].count // want `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
		}
		return kn[i].name < kn[j].name // want `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
	})
	var b strings.Builder
	for _, x := range kn { // want `\(loop\): length of kn depends on map iteration order`
		fmt.Fprintf(&b, "%s %.3f\n", x.name, 100*float64(x.count)/float64(total))
	}
	return b.String()
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 1000, "length of the sequence")
	flag.Parse()
	seq := dna(*n)
	var answers []chan string
	// n is a flag, seq computed from it with a constant seed, k and s are
	// each goroutine's own loop variables: none of the goroutines' loops
	// is a change point.
	for k := 1; k <= 2; k++ {
		ch := make(chan string)
		answers = append(answers, ch)
		go func() { // want `\(spawn\)`
			ch <- frequencies(seq, k)
		}()
	}
	for _, s := range []string{"GGT", "GGTA", "GGTATT"} {
		ch := make(chan string)
		answers = append(answers, ch)
		go func() { // want `\(spawn\)`
			ch <- fmt.Sprintf("%d\t%s\n", count(seq, len(s))[s], s)
		}()
	}
	for _, ch := range answers {
		fmt.Print(<-ch)
	}
}
