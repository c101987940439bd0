// Package e2e holds divergo's end-to-end tests: each copies a program from
// the repository's testdata/ into a temporary module, runs go generate
// (which runs divergo instrument), builds the program with the overlay,
// runs it, and checks the recorded trace against what the program did.
//
// The tests build the divergo command once (TestMain) and share the go
// command's build cache. With -short they are all skipped.
package e2e
