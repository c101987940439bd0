// Command knucleotideslices is k-nucleotide written with slices where
// knucleotide uses a strings.Builder: the sequence is a []byte appended
// to, the frequencies are sorted from a slice, and each question is a
// named function that gets the sequence and its k as go arguments.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
)

func dna(n int) []byte {
	r := rand.New(rand.NewSource(42))
	seq := make([]byte, 0, n)
	for i := 0; i < n; i++ {
		seq = append(seq, "ACGT"[r.Intn(4)])
	}
	return seq
}

func count(seq []byte, k int) map[string]int {
	counts := make(map[string]int)
	for i := 0; i+k <= len(seq); i++ {
		counts[string(seq[i:i+k])]++
	}
	return counts
}

type kNuc struct {
	name  string
	count int
}

func frequencies(seq []byte, k int, out chan<- string) {
	var kn []kNuc
	total := 0
	for s, c := range count(seq, k) { // want `\(maprange\): iteration order`
		kn = append(kn, kNuc{s, c})
		total += c
	}
	sort.Slice(kn, func(i, j int) bool {
		if kn[i].count != kn[j].count { // want `\(branch\): kn\[i\]\.count depends on captured variable kn` `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
			return kn[i].count > kn[j].count // want `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
		}
		return kn[i].name < kn[j].name // want `\(index\): index i depends on parameter i, which unknown callers pass` `\(index\): index j depends on parameter j, which unknown callers pass`
	})
	lines := ""
	for _, x := range kn { // want `\(loop\): length of kn depends on map iteration order`
		lines += fmt.Sprintf("%s %.3f\n", x.name, 100*float64(x.count)/float64(total))
	}
	out <- lines
}

func occurrences(seq []byte, s string, out chan<- string) {
	out <- fmt.Sprintf("%d\t%s\n", count(seq, len(s))[s], s)
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 1000, "length of the sequence")
	flag.Parse()
	seq := dna(*n)
	var answers []chan string
	for k := 1; k <= 2; k++ {
		ch := make(chan string)
		answers = append(answers, ch)
		go frequencies(seq, k, ch) // want `\(spawn\)`
	}
	for _, s := range []string{"GGT", "GGTA", "GGTATT"} {
		ch := make(chan string)
		answers = append(answers, ch)
		go occurrences(seq, s, ch) // want `\(spawn\)`
	}
	for _, ch := range answers {
		fmt.Print(<-ch)
	}
}
