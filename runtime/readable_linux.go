//go:build linux

package runtime

import (
	"os"

	"github.com/divergo/divergo/internal/trace"
)

// readability is how much of a trace file reads: what a recovery must not
// lower (recover_linux.go).
type readability struct {
	opens    bool   // the header and the index (or the chunks' scan) read
	complete bool   // it has its index
	events   uint64 // events read before any stream's error
	broken   int    // streams that end in an error
}

// readabilityOf reads the trace at path as the commands do, every stream
// to its end (trace.Reader.CheckStream), without completing it first
// (trace.Open would). An error is the file system's.
func readabilityOf(path string) (readability, error) {
	f, err := os.Open(path)
	if err != nil {
		return readability{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return readability{}, err
	}
	r, err := trace.NewReader(f, st.Size())
	if err != nil {
		return readability{}, nil
	}
	rd := readability{opens: true, complete: !r.Truncated()}
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
func (rd readability) worse(before readability) bool {
	return before.opens && !rd.opens || rd.broken > before.broken || rd.events < before.events
}
