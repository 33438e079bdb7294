package parser

import (
	"runtime"
	"runtime/debug"
	"testing"

	"golang.org/x/sys/unix"
)

// The bounds of workGrowth for work that grows linearly with an input
// sixteen times larger: about 16 in both units (less where a fixed cost
// counts; more where a slice grows by doubling, or, in CPU, where the
// larger input leaves the caches or the race detector maps shadow
// memory), where quadratic work gives about 256.
const (
	linearAllocGrowth = 32
	linearCPUGrowth   = 48
)

// growth is how much more work the same code did on an input sixteen
// times larger, in two units that do not depend on the machine's speed or on
// its load: the bytes allocated, and the CPU time of the one thread that
// ran it.
type growth struct {
	alloc, cpu float64
}

// linear reports whether g is what linear work gives.
func (g growth) linear() bool {
	return g.alloc <= linearAllocGrowth && g.cpu <= linearCPUGrowth
}

// workGrowth measures how work grows with the input: small and large do
// the same work on an input and on one sixteen times larger. The collector
// is off while they run, and collects before each batch: no
// collection's work, which depends on the heap rather than on the input,
// falls into a run, and sync.Pool keeps what it is given within a batch
// (under the race detector it still drops some of it at random, as often
// at either size). CPU time is the calling thread's own (the goroutine
// locked to it), the least of three batches, so that other processes on
// the machine add nothing; the race detector slows both sizes alike. The caller must not run in parallel with other
// tests, whose allocations would count.
func workGrowth(t *testing.T, small, large func()) growth {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	small() // compiled expressions and pools, made once
	large() // the heap at its size for the larger input
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	bs, cs := measureWork(t, small)
	bl, cl := measureWork(t, large)
	if bs == 0 {
		t.Fatal("the small input allocated nothing: no work to compare")
	}
	return growth{alloc: float64(bl) / float64(bs), cpu: float64(cl) / float64(max(cs, 1))}
}

// minBatchCPU is the least CPU time a batch of runs is measured over:
// far above the clock's resolution and the cost of an interrupt.
const minBatchCPU = 20_000_000 // ns

// measureWork returns the bytes one run of f allocates, after a
// collection, and the least CPU time, in nanoseconds, one run takes of
// the calling thread, averaged over a batch of at least minBatchCPU, in
// three batches.
func measureWork(t *testing.T, f func()) (bytes uint64, cpu int64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	bytes = after.TotalAlloc - before.TotalAlloc
	cpu = -1
	for range 3 {
		runtime.GC()
		runs, start := int64(0), threadCPU(t)
		var d int64
		for d < minBatchCPU {
			f()
			runs++
			d = threadCPU(t) - start
		}
		if per := d / runs; cpu < 0 || per < cpu {
			cpu = per
		}
	}
	return bytes, cpu
}

// threadCPU is the CPU time the calling thread has used, in nanoseconds.
func threadCPU(t *testing.T) int64 {
	t.Helper()
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		t.Fatalf("clock_gettime(CLOCK_THREAD_CPUTIME_ID): %v", err)
	}
	return ts.Nano()
}
