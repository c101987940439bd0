// Package syncop finds the operations of a function body that the
// instrumenter records as events of their own: synchronization operations
// (sync.Mutex, RWMutex, WaitGroup, Cond and Once methods, channel sends,
// receives, closes and range loops, select statements, time.Sleep) and go
// statements (and sync.WaitGroup.Go).
//
// Each is a site of the TBB graph (docs/TBB.md, "Sites"): the analyzer
// builds the graph's table of sites from [Find], and the instrumenter
// passes a site's id to the runtime wrapper it puts around the same
// operation. Both ask this package, so what the graph lists and what the
// rewriter wraps cannot drift apart: the walk below follows the rewriter's
// (function literals are functions of their own; a select's communications
// stay unwrapped; a go statement's call runs in the child, only its
// function value and arguments are evaluated in the parent).
package syncop
