//go:build linux

package runtime

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// killedSmall runs smallChild, kills it, and returns its trace and arena.
func killedSmall(t testing.TB) (dvt, live []byte) {
	t.Helper()
	cmd, path := childTB(t, "small")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	if _, err := out.Read(b); err != nil || string(b) != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q (%v)", b, err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if dvt, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if live, err = os.ReadFile(arenaPath(path)); err != nil {
		t.Fatal(err)
	}
	return dvt, trimZeros(live)
}

// trimZeros cuts the zeros at the end of an arena, most of its segment:
// writeArena puts them back.
func trimZeros(b []byte) []byte {
	return bytes.TrimRight(b, "\x00")
}

// writeArena writes a trace and its arena, zeros put back up to a whole
// segment, at path.
func writeArena(t testing.TB, path string, dvt, live []byte) {
	t.Helper()
	if err := os.WriteFile(path, dvt, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(arenaPath(path), live, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(live) >= arenaHead {
		size := arenaHead + ((len(live)-arenaHead)/segBytes+1)*segBytes
		if err := os.Truncate(arenaPath(path), int64(size)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCorruptArena corrupts the arena of a real killed run 200 ways (words
// overwritten with random values, with values the recorder writes, with
// zeros; the file cut short): reading the trace must never crash, never
// fail, and never read less than the trace did without its arena; and the
// arena must be gone afterwards, used or kept aside, so that a second read
// reads the same.
func TestCorruptArena(t *testing.T) {
	dvt, live := killedSmall(t)
	dir := t.TempDir()
	base := filepath.Join(dir, "base.dvt")
	if err := os.WriteFile(base, dvt, 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := readAll(t, base)
	if err != nil || !before.opens {
		t.Fatalf("the killed run's trace does not read without its arena: %+v %v", before, err)
	}
	// Uncorrupted, recovery completes the trace and adds the workers'
	// events, unless the checkpointer had written them already as
	// tentative chunks (all goroutines blocked, and the kill late on a
	// loaded machine): then it adds none and loses none.
	path := filepath.Join(dir, "whole.dvt")
	writeArena(t, path, dvt, live)
	if _, err := trace.Open(path); err != nil {
		t.Fatal(err)
	}
	whole, _ := readAll(t, path)
	if !whole.complete || whole.events < before.events || whole.broken > 0 {
		t.Fatalf("recovery of the intact arena: %+v, without it %+v", whole, before)
	}
	rng := rand.New(rand.NewPCG(38, 1))
	recovered := 0
	for v := range 200 {
		bad := corrupt(rng, live)
		path := filepath.Join(dir, "v.dvt")
		writeArena(t, path, dvt, bad)
		r, err := trace.Open(path)
		if err != nil {
			t.Fatalf("variant %d: %v", v, err)
		}
		r.Close()
		if _, err := os.Stat(arenaPath(path)); !os.IsNotExist(err) {
			t.Fatalf("variant %d: the arena is still there after a read", v)
		}
		after, err := readAll(t, path)
		if err != nil {
			t.Fatal(err)
		}
		if after.worse(before) {
			t.Fatalf("variant %d: the trace reads less after recovery (%+v) than without its arena (%+v)", v, after, before)
		}
		if after.complete {
			recovered++
		}
		os.Remove(arenaPath(path) + ".bad")
	}
	t.Logf("%d of 200 corrupted arenas completed the trace, the others were kept aside", recovered)
}

// corrupt returns a copy of live with a random corruption.
func corrupt(rng *rand.Rand, live []byte) []byte {
	b := bytes.Clone(live)
	words := len(b) / 4
	switch rng.IntN(10) {
	case 0: // cut short
		return b[:rng.IntN(len(b))]
	case 1: // a word of the header
		binary.LittleEndian.PutUint32(b[4*rng.IntN(arenaHead/4):], rng.Uint32())
		return b
	}
	for range 1 + rng.IntN(5) {
		i := arenaHead/4 + rng.IntN(words-arenaHead/4)
		var v uint32
		switch rng.IntN(4) {
		case 0:
			v = rng.Uint32()
		case 1: // an opcode word, any opcode and aux
			v = opBit | uint32(rng.IntN(16))<<16 | uint32(rng.IntN(1<<16))
		case 2: // a block id
			v = uint32(rng.IntN(100))
		case 3:
			v = 0
		}
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// FuzzRecoverArena completes a trace from an arbitrary arena: it must not
// crash, fail, or leave the trace less readable than it was. Seeds: the
// trace and arena of a real killed run, whole and with a few words
// overwritten.
//
// The arena is given sparse (sparseArena): a real one is nine parts in ten
// zeros, 9.5 KB of which 700 bytes are not zero in the seed. Given whole,
// each input that reached new code was minimized for the whole of go test
// -fuzz's -fuzzminimizetime (60 s): a byte at a time over 12 KB, at about
// 2 ms an execution (the files written, recovered and read), during which
// the fuzzer counted no execution and seemed stalled (24 executions counted
// in 150 s). The files go to memory where they can (memDir): an execution
// creates, writes, renames and removes files, which on a disk shared with
// other builds took about five times as long as in memory (100 runs of the
// seeds: 18.4 s in /tmp, 3.6 s in /dev/shm).
func FuzzRecoverArena(f *testing.F) {
	dvt, live := killedSmall(f)
	f.Add(dvt, sparseArena(live))
	rng := rand.New(rand.NewPCG(33, 38))
	for range 8 {
		f.Add(dvt, sparseArena(corrupt(rng, live)))
	}
	f.Fuzz(func(t *testing.T, dvt, sparse []byte) {
		live, ok := denseArena(sparse, 1<<20)
		if !ok {
			return
		}
		dir := memDir(t)
		base := filepath.Join(dir, "base.dvt")
		if err := os.WriteFile(base, dvt, 0o644); err != nil {
			t.Fatal(err)
		}
		before, err := readAll(t, base)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "t.dvt")
		writeArena(t, path, dvt, live)
		if err := RecoverTrace(path); err != nil {
			t.Fatal(err)
		}
		after, err := readAll(t, path)
		if err != nil {
			t.Fatal(err)
		}
		if after.worse(before) {
			t.Fatalf("the trace reads less after recovery (%+v) than before (%+v)", after, before)
		}
	})
}

// memDir is a temporary directory in memory (under /dev/shm, a tmpfs on
// Linux), removed when t ends, or t.TempDir() where there is none.
func memDir(t *testing.T) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "divergo-fuzz-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// sparseArena is an arena as FuzzRecoverArena takes it: for each word that
// is not zero, the count of zero words before it (a uvarint) and the word's
// four bytes; and the count of zero words after the last, with the one to
// three bytes of a word cut short. Any bytes stand for an arena
// (denseArena).
func sparseArena(live []byte) []byte {
	var b []byte
	gap := uint64(0)
	n := len(live) / 4 * 4
	for i := 0; i < n; i += 4 {
		if binary.LittleEndian.Uint32(live[i:]) == 0 {
			gap++
			continue
		}
		b = binary.AppendUvarint(b, gap)
		b = append(b, live[i:i+4]...)
		gap = 0
	}
	if gap > 0 || n < len(live) {
		b = binary.AppendUvarint(b, gap)
		b = append(b, live[n:]...)
	}
	return b
}

// TestSparseArena checks that denseArena gives back every arena
// sparseArena is given: a real one, corrupted ones (cut inside a word
// among them), and short ones.
func TestSparseArena(t *testing.T) {
	_, live := killedSmall(t)
	arenas := [][]byte{live, nil, {1}, {0, 0, 0, 0}, {0, 0, 0, 0, 0, 7}, {1, 2, 3, 4, 0, 0, 0, 0}}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		arenas = append(arenas, corrupt(rng, live))
	}
	for i, a := range arenas {
		got, ok := denseArena(sparseArena(a), 1<<20)
		if !ok || !bytes.Equal(got, a) {
			t.Errorf("arena %d (%d bytes): back as %d bytes, %v", i, len(a), len(got), ok)
		}
	}
	if _, ok := denseArena(binary.AppendUvarint(nil, 1<<40), 1<<20); ok {
		t.Error("an arena of 4 TiB of zeros was taken")
	}
}

// denseArena is the arena sparse stands for, false if it is longer than
// max bytes. A count that is not a uvarint ends it.
func denseArena(sparse []byte, max int) ([]byte, bool) {
	var live []byte
	for len(sparse) > 0 {
		gap, n := binary.Uvarint(sparse)
		if n <= 0 {
			break
		}
		sparse = sparse[n:]
		if gap > uint64(max/4) || len(live)+4*int(gap) > max {
			return nil, false
		}
		live = append(live, make([]byte, 4*gap)...)
		k := min(4, len(sparse))
		live = append(live, sparse[:k]...)
		sparse = sparse[k:]
	}
	return live, true
}

// BenchmarkRecover completes the trace of a run killed after 2 s of
// TestKilledAnytime's work from its arena, a fresh copy of both each
// time: the cost of reading such a trace the first time, checks included.
// It reports the trace's size before.
//
//	go test -run '^$' -bench BenchmarkRecover -benchtime 5x ./runtime/
func BenchmarkRecover(b *testing.B) {
	cmd, path := childTB(b, "work")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go io.Copy(io.Discard, pipe)
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	dvt, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	live, err := os.ReadFile(arenaPath(path))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		p := filepath.Join(dir, "r.dvt")
		writeArena(b, p, dvt, trimZeros(live))
		b.StartTimer()
		if err := RecoverTrace(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(dvt))/1e6, "trace-MB")
}

// fullRead is how much of a trace file reads, every stream decoded to its
// end: the tests' measure of what a recovery must not lower.
type fullRead struct {
	opens, complete bool
	events          uint64 // events read before any stream's error
	broken          int    // streams that end in an error
}

// readAll reads the trace at path without completing it.
func readAll(t testing.TB, path string) (fullRead, error) {
	t.Helper()
	r, f, err := openRaw(path)
	if err != nil || r == nil {
		return fullRead{}, err
	}
	defer f.Close()
	rd := fullRead{opens: true, complete: !r.Truncated()}
	for _, gi := range r.Goroutines() {
		n, err := r.CheckStream(gi.ID)
		rd.events += n
		if err != nil {
			rd.broken++
		}
	}
	return rd, nil
}

// worse reports whether rd reads less than before: it does not open where
// before did, has more broken streams, or fewer events.
func (rd fullRead) worse(before fullRead) bool {
	return before.opens && !rd.opens || rd.broken > before.broken || rd.events < before.events
}
