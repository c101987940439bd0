package analyzer

import (
	"strings"
	"testing"
)

func TestRuleSetFlag(t *testing.T) {
	var s ruleSet
	if err := s.Set("frozen, inputs,"); err != nil || s.String() != "inputs,frozen" {
		t.Errorf("Set: %q, %v", s.String(), err)
	}
	if err := s.Set("nosuch"); err == nil || !strings.Contains(err.Error(), "unknown rule") {
		t.Errorf("Set of an unknown rule: %v", err)
	}
}
