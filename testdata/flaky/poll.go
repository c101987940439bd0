package flaky

import (
	"context"
	"time"
)

// Poll calls work at every tick until ctx is done, in the shape of the
// polling loops of real projects. The trap: when a tick and the cancel
// are both there, select takes either, so work can run once more after
// ctx was cancelled.
func Poll(ctx context.Context, every time.Duration, work func()) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			work()
		case <-ctx.Done():
			return
		}
	}
}
