package runtime

// HashString is the outcome the instrumented program records for a string:
// a map key or a string index value. It must be the same in every run and
// on every platform (so not the Go runtime's seeded hash), and cheap: a
// word-counting loop hashes every word it counts.
//
// It reads the string eight bytes at a time, and a tail of one to eight
// bytes in at most two overlapping loads, where FNV-1a (what the
// instrumenter used before) spends a dependent multiply on every byte
// (BenchmarkHashString: 2.0-2.5 against 2.5-2.8 ns on testdata/wordcount's
// words, 3.6 against 12.9 ns on 22-byte keys). Each step is a bijection of
// the 64-bit state, so two strings of the same length up to eight bytes
// never share the state; the result keeps its high 30 bits, which depend
// on every input bit, and fits in one buffer word (Outcome). Two keys of a
// run share an outcome about once in a billion pairs.
func HashString(s string) uint64 {
	h := uint64(len(s)) * hashMul
	for len(s) > 8 {
		h = hashMix(h ^ le64(s))
		s = s[8:]
	}
	var v uint64
	switch n := len(s); {
	case n >= 4: // 4..8 bytes: two loads that overlap cover them all
		v = uint64(le32(s)) | uint64(le32(s[n-4:]))<<32
	case n > 0: // 1..3 bytes
		v = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return hashMix(h^v) >> 34
}

// hashMul is 2^64 divided by the golden ratio, an odd constant whose
// products spread every input bit into the high bits.
const hashMul = 0x9e3779b97f4a7c15

// hashMix is a bijection of 64 bits: a multiply by an odd constant, then
// the high half folded into the low one.
func hashMix(x uint64) uint64 {
	x *= hashMul
	return x ^ x>>32
}

// le32 and le64 read the first bytes of s, little endian (the compiler
// turns each into one load).
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
