package runtime

import (
	"fmt"
	"os"
)

// createTrace creates the trace file at path. A regular file already there
// (the trace of the previous run, typically) is first renamed aside and
// removed by another goroutine while the program runs: truncating it in
// place, as os.Create does, frees its page cache inside the open call, and
// ext4 then also writes the new file back synchronously when it is closed
// (its rule for files truncated and rewritten); for a 15 MB trace that was
// about 10 ms at the start and end of main, most of a short run's
// recording overhead. removed is closed when the old file is gone (nil if
// there was none); finish waits for it, so a short run leaves nothing
// behind. Only a run killed in the first milliseconds can leave
// PATH.PID.old next to the trace.
func createTrace(path string) (f *os.File, removed chan struct{}, err error) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		aside := fmt.Sprintf("%s.%d.old", path, os.Getpid())
		if os.Rename(path, aside) == nil {
			removed = make(chan struct{})
			go func() {
				os.Remove(aside)
				close(removed)
			}()
		}
	}
	f, err = os.Create(path)
	return f, removed, err
}
