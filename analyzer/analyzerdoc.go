package analyzer

import (
	_ "embed"
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// docGo is this package's doc.go, whose comment is the Analyzer's Doc as
// well as the package's: one text, so that the two cannot drift.
//
//go:embed doc.go
var docGo string

var doc = mustExtractDoc(docGo, "divergo")

// mustExtractDoc is extractDoc that panics, for a package variable: the
// doc.go it reads is this package's own, so an error is a bug a test sees.
func mustExtractDoc(content, name string) string {
	d, err := extractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return d
}

// extractDoc returns the section of content's package comment headed
// "# Analyzer name", as x/tools' passes take their Doc from their doc.go:
// the section's first line is "name: title", which becomes the title, and
// the section ends at the next heading.
func extractDoc(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("reading the package comment: %w", err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("no package comment")
	}
	for _, section := range strings.Split("\n"+f.Doc.Text(), "\n# ") {
		body, ok := strings.CutPrefix(section, "Analyzer "+name+"\n")
		if !ok {
			continue
		}
		body = strings.TrimSpace(body)
		rest, ok := strings.CutPrefix(body, name+":")
		if !ok {
			return "", fmt.Errorf("heading \"Analyzer %s\" not followed by a %q line", name, name+": title")
		}
		return strings.TrimSpace(rest), nil
	}
	return "", fmt.Errorf("no heading \"Analyzer %s\" in the package comment", name)
}
