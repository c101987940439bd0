// Package flaky explains a flaky test: given the traces of runs of one
// test, some failing and some passing, it finds what separates the
// failing runs from the passing ones.
//
// # Views
//
// A test binary runs many tests, and their goroutines interleave
// differently in every run. A [View] is one test of one run: the test's
// root goroutine (the goroutine testing ran it on) and what that spawned,
// the root as the view's only goroutine without a parent. Two views of one
// test are compared on the test's own goroutines, whatever the other tests
// did around them.
//
// # Separators
//
// Two passing runs of a concurrent test differ too. [Explain] compares a
// bounded number of pairs of each kind (failing-vs-passing,
// passing-vs-passing, failing-vs-failing) with compare.Traces and groups
// each pair's sections by statement. A statement's score is the share of
// failing-vs-passing pairs it parted minus the larger share of like pairs
// it parted; the statements with a positive score are the [Separator]s,
// best first, then earliest.
//
// # Waits and leftovers
//
// Beside the separators, Explain gives the sync sites whose mean waiting
// time differs most between failing and passing runs (waittime.Analyze on
// each view) and the test's goroutines left unfinished at the end of
// failing runs.
package flaky
