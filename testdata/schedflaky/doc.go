// Package schedflaky holds flaky tests each decided by one kind of
// scheduling decision, in the shapes of real flaky-test fixes: which ready
// case a select takes, a fired timer against a ready channel, a select's
// default, the order a Broadcast's waiters wake in, the order goroutines
// start in, and a continue in a retry loop. divergo test must find each
// flaky within 40 runs and replay its failing run (e2e's
// TestSchedFlakyShapes).
package schedflaky
