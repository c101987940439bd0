package runtime

import (
	"fmt"
	"os"
	"strconv"
)

// Perturbation strength. DIVERGO_PERTURB_STRENGTH=P (an integer, 0 to 100)
// makes P percent of the perturbation decisions act (a yield or a sleep,
// half each) and the others do nothing; unset, half act, as decide always
// did, with the same decisions under the same seed. divergo test mixes
// strengths: a flaky test that fails in every run perturbed half the time
// may pass in some at 10 percent, one that never fails may fail at 100.

// perturbStrength is the share of decisions that act, in percent, or -1
// when DIVERGO_PERTURB_STRENGTH is not set. Set by readStrength with
// perturbOn, read only afterwards.
var perturbStrength = -1

// readStrength reads DIVERGO_PERTURB_STRENGTH. A value that is not an
// integer from 0 to 100 is reported once and ignored.
func readStrength() {
	perturbStrength = -1
	v := os.Getenv("DIVERGO_PERTURB_STRENGTH")
	if v == "" {
		return
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 0 || p > 100 {
		fmt.Fprintf(os.Stderr, "divergo: DIVERGO_PERTURB_STRENGTH=%q is not a percentage from 0 to 100; perturbing at the default strength\n", v)
		return
	}
	perturbStrength = p
}

// strengthen turns the random v of a decision into decide's selector:
// v&7 (4 to 7 act) at the default strength; at strength P, 4 to 7 for P
// percent of the values of bits unrelated to the selector's, 0 for the
// others.
func strengthen(v uint64) uint64 {
	if perturbStrength < 0 {
		return v & 7
	}
	if (v>>40)%100 < uint64(perturbStrength) {
		return 4 + v&3
	}
	return 0
}
