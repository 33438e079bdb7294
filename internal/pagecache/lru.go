// Package pagecache is a least-recently-used cache with a fixed budget:
// each entry has a cost (bytes, or 1 for a count of entries), and when
// the entries' costs add up to more than the budget, the least recently
// used are dropped until they fit. The web pages keep what they drew in
// one (internal/webpage), so that its memory is bounded however many
// games and readers there are.
package pagecache

import (
	"container/list"
	"sync"
)

// LRU is a cache of values by key within a budget; it is safe for use
// by many goroutines at once. Its zero value is not usable: New makes one.
type LRU[K comparable, V any] struct {
	budget int64
	cost   func(K, V) int64

	mu      sync.Mutex
	used    int64
	order   *list.List // of *entry[K, V], the most recently used first
	entries map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key   K
	value V
	cost  int64
}

// New makes a cache that holds entries whose costs add up to at most
// budget; cost says what an entry costs (at least 1 is counted for each).
func New[K comparable, V any](budget int64, cost func(K, V) int64) *LRU[K, V] {
	return &LRU[K, V]{budget: budget, cost: cost, order: list.New(), entries: map[K]*list.Element{}}
}

// Get returns the value of key, if the cache holds it, and makes it the
// most recently used.
func (c *LRU[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[K, V]).value, true
}

// Put sets the value of key, the most recently used, and drops the least
// recently used entries beyond the budget. A value that costs more than
// the whole budget is not kept (and the key's old value is dropped).
func (c *LRU[K, V]) Put(key K, value V) {
	cost := max(1, c.cost(key, value))
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	if cost > c.budget {
		return
	}
	c.entries[key] = c.order.PushFront(&entry[K, V]{key: key, value: value, cost: cost})
	c.used += cost
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
}

// Delete drops key's value, if the cache holds it.
func (c *LRU[K, V]) Delete(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
}

// remove drops an entry; c.mu is held.
func (c *LRU[K, V]) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry[K, V])
	delete(c.entries, e.key)
	c.used -= e.cost
}

// Used is what the entries held cost together, and how many they are.
func (c *LRU[K, V]) Used() (cost int64, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used, len(c.entries)
}

// Budget is the most the entries may cost together.
func (c *LRU[K, V]) Budget() int64 { return c.budget }
