//go:build race

package runtime

// raceEnabled: this test binary runs under the race detector, whose runtime
// keeps Go's deadlock detection from firing.
const raceEnabled = true
