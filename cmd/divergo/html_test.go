package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fig2Module puts Figure 2's source in a module of its own and makes it the
// current directory, so that the positions of the recorded fig2 traces
// (main.go:27, ...) name its lines. It returns the two traces.
func fig2Module(t *testing.T) (a, b string) {
	t.Helper()
	dir := filepath.Join("..", "..", "internal", "perfetto", "testdata")
	a, b = mustAbs(t, filepath.Join(dir, "fig2-a.dvt")), mustAbs(t, filepath.Join(dir, "fig2-b.dvt"))
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fig2", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	for name, data := range map[string][]byte{"main.go": src, "go.mod": []byte("module example.com/fig2\n\ngo 1.26\n")} {
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(mod)
	return a, b
}

// TestDiffHTML checks the page without a browser: self-contained, the
// summary at the top, and one navigation entry per group of the report,
// each leading to a marked line at the group's position.
func TestDiffHTML(t *testing.T) {
	a, b := fig2Module(t)
	page := filepath.Join(t.TempDir(), "diff.html")
	status, _, errs := runCmd(t, "diff", "-html", page, a, b)
	if status != 1 || !strings.Contains(errs, "wrote the page to "+page) {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(html) {
		t.Errorf("the page loads something from the network")
	}
	if !strings.Contains(html, "fig2-a.dvt and fig2-b.dvt took different paths.") {
		t.Errorf("no summary at the top")
	}
	groups := reportGroups(t, a, b)
	links := navLinks(html)
	if len(links) != len(groups) {
		t.Fatalf("%d navigation entries, report has %d groups: %v", len(links), len(groups), links)
	}
	for i, l := range links {
		if l.pos != groups[i] {
			t.Errorf("entry %d leads to %s, report's group %d is at %s", i+1, l.pos, i+1, groups[i])
		}
		if !markedLine(html, l.anchor, l.pos) {
			t.Errorf("entry %d: line %s (%s) is not marked", i+1, l.anchor, l.pos)
		}
	}
	// "divergo diff -html A B": A is a trace, not the page to write.
	status, _, errs = runCmd(t, "diff", "-html", a, b)
	if status != 1 || !strings.Contains(errs, "the page to ") || !isTrace(a) {
		t.Errorf("-html with no file: status %d, stderr %q", status, errs)
	}
}

// TestHTMLInBrowser loads the pages of diff and wait in a real headless
// browser (Debian's chromium, which .ci/run installs): their script must
// run to the end with no console message, and each navigation entry must
// lead to a marked line at the position the report gives, in the DOM the
// browser built.
func TestHTMLInBrowser(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("skipped: no chromium on PATH to load the page in (apt-get install chromium)")
	}
	a, b := fig2Module(t)
	tmp := t.TempDir()
	diffPage, waitPage := filepath.Join(tmp, "diff.html"), filepath.Join(tmp, "wait.html")
	if status, _, errs := runCmd(t, "diff", "-html", diffPage, a, b); status != 1 {
		t.Fatalf("diff: status %d, stderr %q", status, errs)
	}
	if status, _, errs := runCmd(t, "wait", "-html", waitPage, a); status != 0 {
		t.Fatalf("wait: status %d, stderr %q", status, errs)
	}
	for _, tc := range []struct {
		page string
		want []string
	}{
		{diffPage, reportGroups(t, a, b)},
		{waitPage, waitSites(t, a)},
	} {
		dom := loadInBrowser(t, browser, tc.page)
		links := navLinks(dom)
		if len(links) != len(tc.want) || len(links) == 0 {
			t.Fatalf("%s: %d navigation entries in the browser, the report has %d", tc.page, len(links), len(tc.want))
		}
		for i, l := range links {
			if l.pos != tc.want[i] || !markedLine(dom, l.anchor, l.pos) {
				t.Errorf("%s: entry %d: %s -> %s, report's at %s; marked: %v", tc.page, i+1, l.pos, l.anchor, tc.want[i], markedLine(dom, l.anchor, l.pos))
			}
		}
	}
}

// loadInBrowser returns the DOM the browser built from page, failing on a
// console message or a script that did not run to its end.
func loadInBrowser(t *testing.T, browser, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			t.Errorf("%s: console message: %s", page, l)
		}
	}
	if !strings.Contains(string(dom), `data-ready="true"`) {
		t.Fatalf("%s: the page's script did not run to its end:\n%.2000s", page, dom)
	}
	return string(dom)
}

// waitSites is the positions of the sites of "divergo wait -json".
func waitSites(t *testing.T, a string) []string {
	t.Helper()
	_, out, _ := runCmd(t, "wait", "-json", a)
	var rep struct {
		Sites []struct{ Pos string } `json:"sites"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("wait -json: %v", err)
	}
	var pos []string
	for _, s := range rep.Sites {
		pos = append(pos, s.Pos)
	}
	return pos
}

// reportGroups is the positions of the groups of "divergo diff -json".
func reportGroups(t *testing.T, a, b string) []string {
	t.Helper()
	_, out, _ := runCmd(t, "diff", "-json", a, b)
	var rep struct {
		Groups []struct {
			Where struct{ Pos string } `json:"where"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("diff -json: %v", err)
	}
	var pos []string
	for _, g := range rep.Groups {
		pos = append(pos, g.Where.Pos)
	}
	return pos
}

type navLink struct{ anchor, pos string }

func navLinks(html string) []navLink {
	var out []navLink
	re := regexp.MustCompile(`<a href="#([^"]+)" class="[^"]*" data-group="[^"]*" data-pos="([^"]+)"`)
	for _, m := range re.FindAllStringSubmatch(html, -1) {
		out = append(out, navLink{m[1], m[2]})
	}
	return out
}

// markedLine reports whether the element with id anchor is a marked source
// line whose number is pos's.
func markedLine(html, anchor, pos string) bool {
	line := pos[strings.LastIndexByte(pos, ':')+1:]
	re := regexp.MustCompile(fmt.Sprintf(`<span class="src mark [a-z]+" id="%s" data-line="%s"`, regexp.QuoteMeta(anchor), line))
	return re.MatchString(html)
}
