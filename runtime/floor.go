//go:build !divergo_floor

package runtime

// dropFull, set by building with -tags divergo_floor, makes every goroutine
// empty its full buffers in place instead of handing them over: nothing is
// encoded or written but each goroutine's last buffer, so that a run costs
// what its probes, clocks and sync wrappers cost and no more. It is a
// measuring aid, the floor of recording in scripts/bench-overhead.sh; its
// traces hold only the end of each goroutine.
const dropFull = false
