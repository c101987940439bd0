package trace

import (
	"fmt"
	"io/fs"
	"os"
)

// Trace files are named by users, environment variables and directories
// anyone may have written into, so both ends check what is at the path
// before opening it. A writer never follows a symbolic link at a trace
// path: divergo-traces/run-1.dvt -> elsewhere/keep.txt would otherwise
// have each run overwrite keep.txt. A reader takes regular files only:
// opening a FIFO blocks until someone writes to it (every command hung),
// and a device reads as something else than a trace (/dev/zero as an
// empty one).

// CreateFile creates or truncates the file at path for writing, as
// os.Create does, but refuses a symbolic link at path (the directories
// above it may be links).
func CreateFile(path string) (*os.File, error) {
	if err := NotLink(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|oNoFollow, 0o666)
	if err != nil {
		// A link made between the check and the open.
		if lerr := NotLink(path); lerr != nil {
			return nil, lerr
		}
		return nil, err
	}
	return f, nil
}

// NotLink returns an error, in one line, when path is a symbolic link.
func NotLink(path string) error {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link: divergo writes no trace through one (remove it or name another path)", path)
	}
	return nil
}

// CheckRegular returns an error, in one line, when the file at path exists
// and is not a regular file: a directory, FIFO, socket or device, which
// no trace is. A path to nothing is left to the open that follows.
func CheckRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return regular(path, st)
}

func regular(path string, st fs.FileInfo) error {
	switch m := st.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a directory, not a trace", path)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s: is a FIFO, not a trace", path)
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return fmt.Errorf("%s: is a device, not a trace", path)
	default:
		return fmt.Errorf("%s: is not a regular file, not a trace", path)
	}
}

// OpenRegular opens the file at path for reading if it is a regular file,
// and refuses anything else in one line: what every reader of a trace or
// a file beside one opens it with.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	if err := CheckRegular(path); err != nil {
		return nil, nil, err
	}
	// O_NONBLOCK: a FIFO put at path after the check does not block the
	// open; it is refused below. It does nothing to a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|oNonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = regular(path, st)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}
