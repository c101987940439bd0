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
// # Failure modes
//
// A test can fail in several ways, and one way's failing runs part from
// the passing runs elsewhere than another's. [Output] reads what the test
// binary printed (-test.v, so that passing runs show their t.Log lines),
// [Output.Failure] says how a run failed (its first message at a line that
// logged nothing in passing runs, or its panic), and Explain gives each
// [Mode] its own separators and orderings.
//
// # Orderings
//
// A separator says what the race decided; an [Ordering] names the race:
// two sync operations on one object by two goroutines, first in one order
// in failing runs and in the other in passing runs. Operations are named
// the same in every run by goroutine spawn path, site and occurrence.
//
// # Schedules
//
// A [Plan] mixes unperturbed runs with perturbed ones of several
// strengths, weaker when a test fails in every run of one, so that a
// flaky test stays flaky; [Rate] is a test's failure rate under each.
//
// # Waits and leftovers
//
// Beside the separators, Explain gives the sync sites whose mean waiting
// time differs most between failing and passing runs (waittime.Analyze on
// each view), the test's goroutines left unfinished at the end of failing
// runs and, for each operation they were still blocked in, the operation
// that ended the same wait in passing runs and whether it never came in
// the failing ones or came before the wait began ([Hang]).
package flaky
