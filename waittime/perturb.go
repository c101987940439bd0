package waittime

// withoutPerturb drops the steps of state perturb from the two sides of a
// wait of w ns, in place, and returns divergo's share of the wait: the
// releaser's delays since the last common synchronization pushed the
// release later, the waiter's pushed the start of its wait later and so
// shortened it. Without them the program would have waited w - share; a
// share larger than w (the delays alone made the wait) leaves the
// program's wait at 0.
func withoutPerturb(long, short []entry, w int64) ([]entry, []entry, int64) {
	var share int64
	keep := func(es []entry, sign int64) []entry {
		out := es[:0]
		for _, e := range es {
			if e.key.state == Perturb {
				share += sign * e.ns
				continue
			}
			out = append(out, e)
		}
		return out
	}
	long, short = keep(long, 1), keep(short, -1)
	return long, short, min(share, w)
}
