package runtime

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestTicketCounts: the n-th acquisition of a lock has ticket n, by lock;
// an RWMutex's readers and writers share one count.
func TestTicketCounts(t *testing.T) {
	a, b := new(sync.Mutex), new(sync.Mutex)
	rw := new(sync.RWMutex)
	type guarded struct {
		x  int
		mu sync.Mutex // an interior pointer: the entry is the field's, not the struct's
	}
	s := new(guarded)
	got := []uint64{ticket(a), ticket(a), ticket(b), ticket(a), ticket(b),
		ticket(rw), ticket(rw), ticket(&s.mu), ticket(&s.mu)}
	want := []uint64{1, 2, 1, 3, 2, 1, 2, 1, 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tickets %v, want %v", got, want)
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(rw)
	runtime.KeepAlive(s)
}

// TestTicketConcurrentReaders: readers of one RWMutex that take their
// tickets at once, first acquisition included, get 1..n, each once.
func TestTicketConcurrentReaders(t *testing.T) {
	const readers, rounds = 4, 1000
	for r := 0; r < 20; r++ {
		rw := new(sync.RWMutex)
		seen := make([]bool, readers*rounds+1)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < readers; i++ {
			wg.Go(func() {
				for j := 0; j < rounds; j++ {
					rw.RLock()
					tk := ticket(rw)
					rw.RUnlock()
					mu.Lock()
					if tk == 0 || tk >= uint64(len(seen)) || seen[tk] {
						t.Errorf("ticket %d twice or out of range", tk)
					} else {
						seen[tk] = true
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
	}
}

// TestTicketReusedAddress: a mutex at the address of one that died starts
// at ticket 1, even when the dead one's entry is still there.
func TestTicketReusedAddress(t *testing.T) {
	seen := map[uint64]bool{}
	for i := 0; i < 10000; i++ {
		mu := new(sync.Mutex)
		key := addr(mu)
		if seen[key] {
			if tk := ticket(mu); tk != 1 {
				t.Fatalf("a new mutex at a reused address has ticket %d, want 1", tk)
			}
			return
		}
		seen[key] = true
		ticket(mu)
		ticket(mu)
		if i%16 == 15 {
			runtime.GC()
		}
	}
	t.Fatal("no address was reused in 10000 allocations with a collection every 16; the test needs one")
}

// TestTicketEntriesFreed: entries go when their mutexes do, so that the
// table holds what is live however many mutexes a program locked.
func TestTicketEntriesFreed(t *testing.T) {
	before := settleTickets(0)
	keep := make([]*sync.Mutex, 10)
	for i := 0; i < 100000; i++ {
		mu := new(sync.Mutex)
		ticket(mu)
		if i < len(keep) {
			keep[i] = mu
		}
	}
	if n := settleTickets(before + len(keep)); n > before+len(keep) {
		t.Errorf("%d ticket entries after 100000 mutexes died, %d before and %d alive", n, before, len(keep))
	}
	for _, mu := range keep {
		if tk := ticket(mu); tk != 2 {
			t.Errorf("a live mutex lost its count: ticket %d, want 2", tk)
		}
	}
}

// settleTickets collects garbage until the cleanups have brought the
// table down to want entries or stopped bringing it down, and returns how
// many are left. Cleanups run on their own goroutine after a collection.
func settleTickets(want int) int {
	n, last := ticketEntries(), -1
	for i := 0; i < 100 && n > want && (n != last || i < 5); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
		last, n = n, ticketEntries()
	}
	return n
}

// BenchmarkTicket is the ticket of a mutex that already has an entry: a
// map load, a weak pointer dereference, an atomic add.
func BenchmarkTicket(b *testing.B) {
	mu := new(sync.Mutex)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ticket(mu)
	}
}

// BenchmarkTicketNew is the first ticket of a new mutex: its entry, weak
// pointer and cleanup, and later the cleanup's run.
func BenchmarkTicketNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ticket(new(sync.Mutex))
	}
}

// BenchmarkTicketNewInStruct is BenchmarkTicketNew for a mutex in a
// 64-byte struct, the more usual home of a mutex: fewer objects per span
// for the runtime's special records to be sorted among.
func BenchmarkTicketNewInStruct(b *testing.B) {
	type guarded struct {
		mu sync.Mutex
		_  [7]uint64
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ticket(&new(guarded).mu)
	}
}

// BenchmarkShortLivedMutexes locks and unlocks n mutexes that die at once,
// through the recording wrappers, and reports the heap still live once the
// garbage is collected (live-B, against the heap before the first lock)
// and the ticket entries left: both must stay flat as n grows.
func BenchmarkShortLivedMutexes(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("mutexes=%d", n), func(b *testing.B) {
			startSession(b)
			g := Main(testGraphJSON(b), bMain)
			settleTickets(0)
			base := liveHeap()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := 0; j < n; j++ {
					mu := new(sync.Mutex)
					g.Lock(bSpawn, mu)
					g.Unlock(bSpawn, mu)
				}
			}
			b.StopTimer()
			entries := settleTickets(0)
			b.ReportMetric(float64(liveHeap()-base), "live-B")
			b.ReportMetric(float64(entries), "entries")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/mutex")
			g.Exit(bMain)
		})
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
