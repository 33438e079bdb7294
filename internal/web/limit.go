package web

import (
	"sync"
	"time"
)

// limiter is a token bucket per client address: burst requests at once,
// then one every every. It keeps at most maxClients addresses; when it
// is full it forgets those whose buckets have refilled, and if none has,
// it refuses new addresses until one has (a flood of addresses then costs
// the flood, not the clients already known).
type limiter struct {
	mu      sync.Mutex
	burst   float64
	every   time.Duration
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

const maxClients = 10000

func newLimiter(burst int, every time.Duration, now func() time.Time) *limiter {
	return &limiter{burst: float64(burst), every: every, now: now, buckets: map[string]*bucket{}}
}

// allow takes one request of addr's bucket, or reports that it is empty.
func (l *limiter) allow(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[addr]
	if !ok {
		if len(l.buckets) >= maxClients {
			l.forget(now)
			if len(l.buckets) >= maxClients {
				return false
			}
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	b.tokens = min(l.burst, b.tokens+float64(now.Sub(b.at))/float64(l.every))
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// forget drops the buckets that are full again: their addresses would
// start afresh anyway.
func (l *limiter) forget(now time.Time) {
	for a, b := range l.buckets {
		if b.tokens+float64(now.Sub(b.at))/float64(l.every) >= l.burst {
			delete(l.buckets, a)
		}
	}
}
