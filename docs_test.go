package divergo_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// history matches development history named by number: a session or an
// issue of this project, singular or plural, with or without a dash or a
// '#' before the number, or the period of work it was done in. Decisions
// and measurements are named by what they are and cited by a doc
// section's title; git keeps when they happened. What precedes the word
// must not be a letter, a digit, '/' or '.', so that a file such as Go's
// test/fixedbugs/issue5963.go and an upstream issue cited by its address
// (golang.org/issue/2075, go.dev/issue/2075) pass; an issue is named by a
// separated number, so issue5963.go alone passes too.
var history = regexp.MustCompile(`(?i)(?:^|[^\w/.])(sessions?[\s-]*[0-9]+|issues?[\s#-]+[0-9]+|work[\s-]+periods?\b)`)

// TestNoSessionNumbers keeps development history out of the tracked files:
// docs, comments, scripts and test names say what is, not which session
// measured it or which issue asked for it. Files under testdata/ directories are programs and traces,
// not prose, and are left out, as are binary files.
func TestNoSessionNumbers(t *testing.T) {
	files, err := trackedFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no files found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, hit := range historyLines(data) {
			t.Errorf("%s:%s: name the decision or measurement by what it is, cite the doc section by its title, and an upstream issue by its address", f, hit)
		}
	}
}

// TestNoSessionNumbersCatches: the rule fails the forms it is meant to fail,
// across a line break too, and passes the runtime's own sessions, Go's
// fixedbugs files and upstream issues cited by their address.
func TestNoSessionNumbersCatches(t *testing.T) {
	s := "sess" + "ion" // so that this file does not hold what it tests
	i := "iss" + "ue"
	w := "work" + " period"
	for _, bad := range []string{
		s + " 7", "S" + s[1:] + " 11's machine", s + "s 6-10", s + "\n9", s + "-3", "(" + s + " 8)",
		i + " 12", "I" + i[1:] + " 25 asks", "(" + i + " 24: x)", i + "s 12 and 15", i + " #7", i + "\n26",
		"the targets of " + i + " 15", w, w + "s", "W" + w[1:] + " 3",
	} {
		if len(historyLines([]byte(bad))) == 0 {
			t.Errorf("%q passes", bad)
		}
	}
	for _, good := range []string{
		"the " + s + "'s lock", s + ".go", "a " + s + " of 41 rounds", "multi" + s + " 3", s + "s end",
		"test/fixedbugs/" + i + "5963.go", "`" + i + "79186.go`", "golang.org/" + i + "/2075",
		"https://go.dev/" + i + "/61234", "github.com/golang/go/" + i + "s/2075", "an " + i + " of 3 bytes",
		"the work of a period", "tissue 3",
	} {
		if hits := historyLines([]byte(good)); len(hits) > 0 {
			t.Errorf("%q fails: %v", good, hits)
		}
	}
	if historyLines([]byte("x\x00 "+s+" 3")) != nil {
		t.Error("a binary file is read")
	}
}

// historyLines returns "line: text" for each match in data, nil for a
// binary file (a NUL byte in its first 8000 bytes, as git decides).
func historyLines(data []byte) []string {
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil
	}
	var hits []string
	for _, m := range history.FindAllSubmatchIndex(data, -1) {
		line := 1 + bytes.Count(data[:m[2]], []byte("\n"))
		hits = append(hits, fmt.Sprintf("%d: %q", line, data[m[2]:m[3]]))
	}
	return hits
}

// trackedFiles lists the files git tracks outside testdata/ directories,
// or, where git or the repository is not there (a module zip), every file
// under the module root but .git and testdata/ directories.
func trackedFiles() ([]string, error) {
	inTestdata := func(p string) bool {
		return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "testdata")
	}
	var files []string
	if out, err := exec.Command("git", "ls-files", "-z").Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" && !inTestdata(f) {
				files = append(files, f)
			}
		}
		return files, nil
	}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == ".divergo" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// TestReadmeCommands checks every divergo command in the README's shell
// blocks against the command as built: its subcommand exists, -h explains
// it, and each flag it is given is one that -h names. go commands must be
// ones the go command knows. (cmd/divergo's TestDemo runs the demo itself.)
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := shellCommands(string(readme))
	if len(cmds) < 10 {
		t.Fatalf("README.md: %d commands in sh blocks, want the workflows' (at least 10)", len(cmds))
	}
	bin := filepath.Join(t.TempDir(), "divergo")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/divergo").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/divergo: %v\n%s", err, out)
	}
	helps := map[string]string{}
	help := func(sub string) (string, error) {
		if h, ok := helps[sub]; ok {
			return h, nil
		}
		args := []string{sub, "-h"}
		if sub == "help" { // help takes a command, not flags
			args = args[:1]
		}
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("divergo %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		helps[sub] = string(out)
		return helps[sub], nil
	}
	var divergoCmds int
	for _, c := range cmds {
		args := c.words
		for len(args) > 0 && strings.Contains(args[0], "=") { // VAR=value before the command
			args = args[1:]
		}
		switch {
		case len(args) >= 1 && args[0] == "divergo":
			args = args[1:]
		case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/divergo",
			len(args) >= 3 && args[0] == "go" && args[1] == "tool" && args[2] == "divergo":
			args = args[3:]
		case len(args) >= 2 && args[0] == "go" && args[1] == "tool":
			if out, err := exec.Command("go", "tool", "-n", args[2]).CombinedOutput(); err != nil {
				t.Errorf("README.md:%d: go tool %s: no such tool: %v\n%s", c.line, args[2], err, out)
			}
			continue
		case len(args) >= 2 && args[0] == "go":
			if out, err := exec.Command("go", "help", args[1]).CombinedOutput(); err != nil {
				t.Errorf("README.md:%d: go %s: no such go command: %v\n%s", c.line, args[1], err, out)
			}
			continue
		default:
			continue // the user's own program
		}
		divergoCmds++
		if len(args) == 0 {
			t.Errorf("README.md:%d: divergo without a command", c.line)
			continue
		}
		sub := args[0]
		h, err := help(sub)
		if err != nil {
			t.Errorf("README.md:%d: %v", c.line, err)
			continue
		}
		for _, a := range args[1:] {
			if a == "--" {
				break
			}
			name, _, _ := strings.Cut(a, "=")
			if strings.HasPrefix(name, "-") && !strings.Contains(h, "["+name) && !strings.Contains(h, name+" ") && !strings.Contains(h, name+"\t") {
				t.Errorf("README.md:%d: divergo %s: flag %s is not in divergo %s -h", c.line, sub, name, sub)
			}
		}
	}
	if divergoCmds < 8 {
		t.Errorf("README.md: %d divergo commands checked, want the workflows' (at least 8)", divergoCmds)
	}
}

// readmeCmd is one command of a README shell block, split into words.
type readmeCmd struct {
	line  int
	words []string
}

// shellCommands returns the commands of the ```sh blocks of a Markdown
// text: each line without its comment, split at && into commands.
func shellCommands(md string) []readmeCmd {
	var cmds []readmeCmd
	in := false
	sc := bufio.NewScanner(strings.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			in = !in && strings.TrimPrefix(line, "```") == "sh"
			continue
		case !in:
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		for _, c := range strings.Split(line, "&&") {
			if w := strings.Fields(c); len(w) > 0 {
				cmds = append(cmds, readmeCmd{n, w})
			}
		}
	}
	return cmds
}

// TestCIShardsExample checks the divergo commands of docs/ci-shards.yml,
// the GitHub Actions matrix that this repository's CI does not run,
// against the command as built: each flag they give is one that
// divergo test -h names, and the matrix has a job for every shard.
func TestCIShardsExample(t *testing.T) {
	yml, err := os.ReadFile(filepath.Join("docs", "ci-shards.yml"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "divergo")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/divergo").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/divergo: %v\n%s", err, out)
	}
	help, err := exec.Command(bin, "test", "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("divergo test -h: %v\n%s", err, help)
	}
	flags := map[string]bool{}
	for _, line := range strings.Split(string(yml), "\n") {
		_, cmd, ok := strings.Cut(line, "divergo test ")
		if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, w := range strings.Fields(cmd) {
			if name, _, _ := strings.Cut(w, "="); strings.HasPrefix(name, "-") {
				flags[name] = true
				if !strings.Contains(string(help), name+" ") && !strings.Contains(string(help), name+"\t") && !strings.Contains(string(help), "["+name) {
					t.Errorf("docs/ci-shards.yml: divergo test %s is not in divergo test -h", name)
				}
			}
		}
	}
	for _, want := range []string{"-shard", "-o", "-explain"} {
		if !flags[want] {
			t.Errorf("docs/ci-shards.yml: no divergo test %s", want)
		}
	}
	if !strings.Contains(string(yml), "SHARDS: 4") || !strings.Contains(string(yml), "shard: [1, 2, 3, 4]") {
		t.Errorf("docs/ci-shards.yml: want 4 shards, each with its job in the matrix")
	}
}

// mdRef matches a Markdown file named in prose, code or a link.
var mdRef = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)

// TestDocsExist: every Markdown file a tracked file names is in the
// repository, found from the module root, from docs/ or from the naming
// file's own folder, so that no doc or comment sends a reader to a file
// they cannot open.
func TestDocsExist(t *testing.T) {
	files, err := trackedFiles()
	if err != nil {
		t.Fatal(err)
	}
	exists := func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			continue
		}
		for _, m := range mdRef.FindAllIndex(data, -1) {
			ref := strings.TrimPrefix(string(data[m[0]:m[1]]), "./")
			if strings.Contains(ref, "://") || m[0] > 0 && data[m[0]-1] == '/' {
				continue // a web address, or the tail of one
			}
			if !exists(ref) && !exists(filepath.Join("docs", ref)) && !exists(filepath.Join(filepath.Dir(f), ref)) {
				line := 1 + bytes.Count(data[:m[0]], []byte("\n"))
				t.Errorf("%s:%d: %s is not in the repository", f, line, ref)
			}
		}
	}
}

// TestPerformanceShort keeps docs/PERFORMANCE.md a reference: today's
// figures with their commands, then a short section per decision. What
// was measured before and replaced stays in git log, not in the page.
func TestPerformanceShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("docs", "PERFORMANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n > 600 {
		t.Errorf("docs/PERFORMANCE.md has %d lines, want at most 600: keep today's figure and its command, and leave what it replaced to git log", n)
	}
}
