package schedflaky

import "time"

// Fetch asks fetch for a result up to attempts times, each waiting for the
// reply until the attempt's deadline: the shape of a client whose retry
// loop sends again when its timer fired, even when the reply is there too
// (a select between a fired timer and a ready channel, and a continue in
// the loop). It returns the result and the attempts made.
func Fetch(fetch func(reply chan<- int), attempts int, deadline time.Duration) (int, int) {
	for n := 1; n <= attempts; n++ {
		reply := make(chan int, 1)
		go fetch(reply)
		timer := time.NewTimer(deadline)
		select {
		case <-timer.C:
			continue // no reply in time: try again
		case v := <-reply:
			timer.Stop()
			return v, n
		}
	}
	return -1, attempts
}
