package runtime

import (
	"os"

	"github.com/divergo/divergo/internal/trace"
)

// createTrace creates the trace file at path. A regular file already there
// (the trace of the previous run, typically) is opened, unlinked, and
// closed by another goroutine while the program runs: truncating it in
// place, as os.Create does, frees its page cache inside the open call, and
// ext4 then also writes the new file back synchronously when it is closed
// (its rule for files truncated and rewritten); for a 15 MB trace that was
// about 10 ms at the start and end of main, most of a short run's
// recording overhead. Unlinking a file that is still open is cheap: the
// freeing happens at the last close. That close is the expensive part, and
// if the program exits first (an os.Exit the recorder does not see, a
// crash, SIGKILL), the kernel does it at exit, so nothing of the old trace
// is ever left behind. removed is closed when the old file is closed (nil
// if there was none); finish waits for it. The goroutine that closes it is
// hidden from the program (hidden.go).
//
// A symbolic link at path is refused (trace.CreateFile): the trace would
// be written over whatever it points to.
func createTrace(path string) (f *os.File, removed chan struct{}, err error) {
	if err := trace.NotLink(path); err != nil {
		return nil, nil, err
	}
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		if old, err := os.Open(path); err == nil {
			if os.Remove(path) == nil {
				removed = make(chan struct{})
				oldTrace.f, oldTrace.removed = old, removed
				go hiddenCloseOld()
			} else {
				old.Close() // a system that cannot remove open files: truncated below
			}
		}
	}
	f, err = trace.CreateFile(path)
	return f, removed, err
}

// oldTrace is the previous trace createTrace unlinked, for closeOld.
var oldTrace struct {
	f       *os.File
	removed chan struct{}
}

// closeOld closes the previous trace and says so.
func closeOld() {
	oldTrace.f.Close()
	close(oldTrace.removed)
}
