// Package e2e holds divergo's end-to-end tests: each copies a program from
// the repository's testdata/ into a temporary module, runs go generate
// (which runs divergo instrument), builds the program with the overlay,
// runs it, and checks the recorded trace against what the program did.
//
// The tests build the divergo command once (TestMain) and share the go
// command's build cache; the programs that several tests run are one
// module, instrumented and built once (sharedCorpus). With -short they are
// all skipped.
//
// Every test runs in parallel with the others (go test's -parallel, by
// default as many as the machine has cores: most of a test's time is
// instrumenting and building, which is CPU the other core would otherwise
// not spend), but those whose program fails by a deadline
// (testdata/flaky's TestBatchDeadline: 15 ms; TestFlakyReplay's, whose
// timers of 10 and 20 ms decide whether a test is flaky in its 20 runs):
// go test runs them first, on their own, since the load of a second test
// moved the rate at which they fail; and the agreement test with Go's execution tracer, whose
// channel waits disagreed 169 times in 22,009 beside another test under
// the race detector (a few in twenty thousand alone).
package e2e
