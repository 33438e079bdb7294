package daemon

import "sync"

// seatCache keeps what gameOf found of seat tokens, so that a player's
// next mail costs no look-up before its transaction: the game a token
// belongs to never changes, and a seat's address rarely does (a
// replacement, which gives the seat a new token). An entry that is wrong
// by then costs nothing but the mail's escalation: route finds the truth
// under the lock. It holds at most seatCacheSize tokens, and starts
// afresh when full.
type seatCache struct {
	mu sync.Mutex
	m  map[string]seatOf
}

type seatOf struct {
	game    int64
	address string
}

const seatCacheSize = 4096

func (c *seatCache) get(token string) (seatOf, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[token]
	return v, ok
}

func (c *seatCache) put(token string, v seatOf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= seatCacheSize {
		c.m = make(map[string]seatOf)
	}
	c.m[token] = v
}
