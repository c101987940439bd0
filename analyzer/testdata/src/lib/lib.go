// Package lib is called from crosspkg: its facts carry its summaries.
package lib

var counter int

func Shared() int { return counter } // want Shared:"summary\\(shared\\)"

func Id(n int) int { return n } // want Id:"summary\\(p0\\)"

func Pair(a, b int) (int, int) { return b, 1 } // want Pair:"summary\\(p1; -\\)"

func Deref(p *int) int { return *p } // want Deref:"summary\\(p0,m0\\)"

func Inc() { counter++ }

func Fill(p *int, v int) { *p = v } // want Fill:"summary\\(\\) writes\\(p0:p0,p1\\)"
