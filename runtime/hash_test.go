package runtime

import (
	"fmt"
	"strings"
	"testing"
)

// TestHashStringStable pins outcomes: a trace's string outcomes are
// compared across runs and machines, so they must never change by
// accident.
func TestHashStringStable(t *testing.T) {
	for s, want := range map[string]uint64{
		"":                            0,
		"a":                           0x108e062d,
		"fox":                         0x316263ac,
		"quick":                       0x35a907de,
		"lazydogs":                    0x3d0911fc,
		"concurrent program":          0x1acf5b0c,
		strings.Repeat("divergo ", 5): 0x1220eb17,
	} {
		if got := HashString(s); got != want {
			t.Errorf("HashString(%q) = %#x, want %#x", s, got, want)
		}
	}
}

// TestHashStringSpread: every length from 0 to 40, short strings that
// differ in one byte anywhere, and numbered keys, take distinct 30-bit
// outcomes, and the outcomes fill their range evenly.
func TestHashStringSpread(t *testing.T) {
	seen := map[uint64]string{}
	var buckets [16]int
	add := func(s string) {
		h := HashString(s)
		if h >= 1<<30 {
			t.Fatalf("HashString(%q) = %#x: more than 30 bits", s, h)
		}
		if o, dup := seen[h]; dup && o != s {
			t.Fatalf("HashString(%q) = HashString(%q) = %#x", s, o, h)
		}
		seen[h] = s
		buckets[h>>26]++
	}
	for n := 0; n <= 40; n++ {
		base := strings.Repeat("x", n)
		add(base)
		for i := 0; i < n; i++ {
			for _, c := range "aby\x00\xff" {
				add(base[:i] + string(c) + base[i+1:])
			}
		}
	}
	for i := 0; i < 20000; i++ {
		add(fmt.Sprintf("key%d", i))
	}
	for i, k := range buckets {
		if want := len(seen) / len(buckets); k < want*8/10 || k > want*12/10 {
			t.Errorf("bucket %d of 16 holds %d of %d outcomes", i, k, len(seen))
		}
	}
}

// fnv1a is what the instrumenter hashed strings with before HashString.
func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return uint64(uint32(h) ^ uint32(h>>32))
}

var sinkHash uint64

// BenchmarkHashString compares HashString with FNV-1a on the words of
// testdata/wordcount, in turn, and on longer keys.
func BenchmarkHashString(b *testing.B) {
	words := strings.Fields(`the quick brown fox jumps over the lazy dog while a
concurrent program waits for its workers to finish reading lines of text and
counting every word they see before the results are merged`)
	var keys []string
	for i := range 64 {
		keys = append(keys, fmt.Sprintf("worker pool at main.go:%d", i))
	}
	for _, in := range []struct {
		name string
		strs []string
	}{{"words", words}, {"keys", keys}} {
		for _, h := range []struct {
			name string
			f    func(string) uint64
		}{{"HashString", HashString}, {"fnv1a", fnv1a}} {
			b.Run(in.name+"/"+h.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					sinkHash += h.f(in.strs[i])
					if i++; i == len(in.strs) {
						i = 0
					}
				}
			})
		}
	}
}
