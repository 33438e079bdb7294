package webpage

import "sync"

// Changes tells the open pages of a game that it may have changed: the
// turn loop publishes a game's id after each commit that touched it
// (daemon), and each page's event stream (internal/web) waits for its
// game's. A notice says only "game G": each stream then draws its own
// seat's page and compares, so nothing of one seat's reaches another.
// It holds no history: a stream that was not waiting re-reads the page
// when it starts.
type Changes struct {
	mu   sync.Mutex
	subs map[int64]map[chan struct{}]struct{}
}

// NewChanges makes a Changes with no one waiting.
func NewChanges() *Changes {
	return &Changes{subs: map[int64]map[chan struct{}]struct{}{}}
}

// Publish tells those waiting on game that it may have changed. It never
// blocks: a waiter already told and not yet awake is told once.
func (c *Changes) Publish(game int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for ch := range c.subs[game] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Subscribe returns a channel that receives after each Publish of game,
// and the function that stops it.
func (c *Changes) Subscribe(game int64) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs[game] == nil {
		c.subs[game] = map[chan struct{}]struct{}{}
	}
	c.subs[game][ch] = struct{}{}
	return ch, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs[game], ch)
		if len(c.subs[game]) == 0 {
			delete(c.subs, game)
		}
	}
}

// Waiting is how many are waiting on game, for tests.
func (c *Changes) Waiting(game int64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.subs[game])
}
