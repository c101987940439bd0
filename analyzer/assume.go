package analyzer

import (
	"fmt"
	"strings"
)

// Rule is one of the rules by which the analysis takes data that a
// goroutine reads to be the same in two runs, each resting on an
// assumption about the program or the runs (docs/SOUNDNESS.md). When two
// runs part at a statement the analyzer did not mark, the rules its data
// went through name the assumption the runs broke: "divergo check"
// analyses the package again without each rule in turn (the -without flag)
// and sees which make the statement a change point.
type Rule string

// The rules.
const (
	// RuleInputs: the command line, the flags, the environment,
	// GOMAXPROCS and NumCPU are the program's input (inputs.go).
	RuleInputs Rule = "inputs"
	// RuleSeeded: a generator of the function's own draws what its seed
	// decides (seeded.go).
	RuleSeeded Rule = "seeded"
	// RuleFrozen: a captured variable no one writes once a closure
	// capturing it exists is a value (frozen.go).
	RuleFrozen Rule = "frozen"
	// RuleInitOnly: a package variable written only while its package
	// initializes is read-only (globals.go).
	RuleInitOnly Rule = "initonly"
	// RuleCallers: a function's parameters are what its static callers in
	// the package pass (interproc.go).
	RuleCallers Rule = "callers"
	// RuleCounted: a go or defer statement that runs as often with the
	// same values in both runs hands its k-th goroutine the same arguments
	// (steady.go).
	RuleCounted Rule = "counted"
	// RuleFresh: memory a goroutine allocates and never publishes is its
	// own (fresh.go).
	RuleFresh Rule = "fresh"
	// RuleBuilder: a strings.Builder or bytes.Buffer of the function's
	// own holds what its writes wrote (builder.go).
	RuleBuilder Rule = "builder"
)

// Rules lists every rule, in the order check tries them.
var Rules = []Rule{RuleInputs, RuleSeeded, RuleFrozen, RuleInitOnly, RuleCallers, RuleCounted, RuleFresh, RuleBuilder}

// Assumption says in plain words what the rule assumes, and where
// docs/SOUNDNESS.md and the analyzer say it.
func (r Rule) Assumption() string {
	switch r {
	case RuleInputs:
		return "both runs had the same input: command line, flags, environment, GOMAXPROCS and NumCPU (docs/SOUNDNESS.md, \"the program's input\"; analyzer/inputs.go)"
	case RuleSeeded:
		return "a random generator the function seeds itself draws the same numbers in both runs: the same seed, and no one else drawing from it (docs/SOUNDNESS.md, \"a math/rand generator made with a seed of its own\"; analyzer/seeded.go)"
	case RuleFrozen:
		return "a variable captured by closures that no one writes once they exist holds the same value for every goroutine that reads it: no write through unsafe, reflection or assembly (docs/SOUNDNESS.md, \"variables captured by closures, written only before\"; analyzer/frozen.go)"
	case RuleInitOnly:
		return "a package variable written only while its package initializes is read-only afterwards: no write through go:linkname, unsafe or reflection (docs/SOUNDNESS.md, \"package-level variables\"; analyzer/globals.go)"
	case RuleCallers:
		return "a function's parameters are what its callers in the package pass: no call through reflection, go:linkname, cgo or assembly (docs/SOUNDNESS.md, \"parameters\" and \"Known unsoundness\"; analyzer/interproc.go)"
	case RuleCounted:
		return "a go or defer statement that runs as often, with the same values, in both runs gives its k-th goroutine or deferred call the same arguments (docs/SOUNDNESS.md, \"Goroutines matched by count\"; analyzer/steady.go)"
	case RuleFresh:
		return "memory a goroutine allocates and never publishes is read by no other goroutine: the program is data-race-free, and no pointer to it leaves through unsafe, reflection, go:linkname or assembly (docs/SOUNDNESS.md, \"Memory a goroutine never publishes\"; analyzer/fresh.go)"
	case RuleBuilder:
		return "a strings.Builder or bytes.Buffer a function keeps to itself holds what its writes wrote, in their order: its methods touch only it and their arguments, and no pointer to it leaves through unsafe, reflection or assembly (docs/SOUNDNESS.md, \"a strings.Builder or bytes.Buffer of the function's own\"; analyzer/builder.go)"
	}
	return string(r)
}

// without holds the rules the -without flag switches off.
var without ruleSet

func init() {
	Analyzer.Flags.Var(&without, "without",
		"comma-separated rules not to apply, to find which one a divergence at an unmarked statement relied on (divergo check only): "+ruleList())
}

// relaxed reports whether rule r is switched off.
func relaxed(r Rule) bool { return without[r] }

// ruleSet is a flag.Value: a set of rules.
type ruleSet map[Rule]bool

func (s *ruleSet) String() string {
	if s == nil {
		return ""
	}
	var out []string
	for _, r := range Rules {
		if (*s)[r] {
			out = append(out, string(r))
		}
	}
	return strings.Join(out, ",")
}

func (s *ruleSet) Set(v string) error {
	m := ruleSet{}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		ok := false
		for _, r := range Rules {
			ok = ok || string(r) == f
		}
		if !ok {
			return fmt.Errorf("unknown rule %q (known: %s)", f, ruleList())
		}
		m[Rule(f)] = true
	}
	*s = m
	return nil
}

func ruleList() string {
	var out []string
	for _, r := range Rules {
		out = append(out, string(r))
	}
	return strings.Join(out, ",")
}
