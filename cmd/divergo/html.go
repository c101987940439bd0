package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/divergo/divergo/internal/htmlpage"
	"github.com/divergo/divergo/internal/trace"
)

// htmlTarget reads -html: like go tool cover, a page with no file named
// goes to a temporary file opened in the browser. The flag package gives
// -html the next argument as its value, so "divergo diff -html A B" makes
// A the page: a value that is a trace is given back to the traces (a trace
// is never overwritten) and the page opens instead.
func htmlTarget(page *string, pos []string) (rest []string, open bool) {
	if *page == "" || !isTrace(*page) {
		return pos, false
	}
	rest = append([]string{*page}, pos...)
	*page = "-"
	return rest, true
}

// isTrace reports whether path is a file that starts like a trace.
func isTrace(path string) bool {
	f, _, err := trace.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 8)
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == "DVGTRACE"
}

// writePage writes p to path ("-" for a temporary file, opened in the
// browser) and says where it went.
func writePage(path string, open bool, p *htmlpage.Page, stderr io.Writer) error {
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("writing the page: %w", err)
	}
	if open {
		f, err := os.CreateTemp("", "divergo-*.html")
		if err != nil {
			return fmt.Errorf("writing the page: %w", err)
		}
		path = f.Name()
		f.Close()
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		return fmt.Errorf("writing the page: %w", err)
	}
	if open && openBrowser(path) {
		fmt.Fprintf(stderr, "divergo: opened %s in the browser\n", path)
		return nil
	}
	fmt.Fprintf(stderr, "divergo: wrote the page to %s; open it in a browser\n", path)
	return nil
}

// openBrowser tries to show a file in the user's browser, as the go
// command's cmd/internal/browser does: $BROWSER, then the desktop's opener.
// Without a display (a server, CI) it does nothing.
func openBrowser(path string) bool {
	var cmds [][]string
	if b := os.Getenv("BROWSER"); b != "" {
		cmds = append(cmds, []string{b})
	}
	switch runtime.GOOS {
	case "darwin":
		cmds = append(cmds, []string{"open"})
	case "windows":
		cmds = append(cmds, []string{"cmd", "/c", "start"})
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return false
		}
		cmds = append(cmds, []string{"xdg-open"})
	}
	for _, c := range cmds {
		cmd := exec.Command(c[0], append(c[1:], path)...)
		if cmd.Start() == nil && appearsSuccessful(cmd, 3*time.Second) {
			return true
		}
	}
	return false
}

// appearsSuccessful waits a little for cmd: an opener that fails does so
// at once, a browser it started keeps running.
func appearsSuccessful(cmd *exec.Cmd, timeout time.Duration) bool {
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	select {
	case <-time.After(timeout):
		return true
	case err := <-errc:
		return err == nil
	}
}
