package pagecache

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

func byLength(_ string, v string) int64 { return int64(len(v)) }

// TestLRUDropsTheLeastRecentlyUsed: a full cache drops what was used
// longest ago, a Get counting as a use.
func TestLRUDropsTheLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		budget int64
		steps  func(*LRU[string, string])
		held   []string
		gone   []string
	}{
		{"within the budget", 10, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Put("b", "xx") }, []string{"a", "b"}, nil},
		{"the oldest goes", 4, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Put("b", "xx"); c.Put("c", "xx") }, []string{"b", "c"}, []string{"a"}},
		{"a get is a use", 4, func(c *LRU[string, string]) {
			c.Put("a", "xx")
			c.Put("b", "xx")
			c.Get("a")
			c.Put("c", "xx")
		}, []string{"a", "c"}, []string{"b"}},
		{"too big is not kept", 4, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Put("b", "xxxxx") }, []string{"a"}, []string{"b"}},
		{"a new value replaces the old", 4, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Put("a", "yyyy") }, []string{"a"}, nil},
		{"too big drops the old value", 4, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Put("a", "yyyyy") }, nil, []string{"a"}},
		{"delete", 4, func(c *LRU[string, string]) { c.Put("a", "xx"); c.Delete("a") }, nil, []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lru := New(c.budget, byLength)
			c.steps(lru)
			for _, k := range c.held {
				if _, ok := lru.Get(k); !ok {
					t.Errorf("%s is gone", k)
				}
			}
			for _, k := range c.gone {
				if v, ok := lru.Get(k); ok {
					t.Errorf("%s is still held: %q", k, v)
				}
			}
			if used, _ := lru.Used(); used > c.budget {
				t.Errorf("%d used of a budget of %d", used, c.budget)
			}
		})
	}
}

// TestLRUBoundHolds: whatever many goroutines put, the entries never cost
// more than the budget, and what is counted is what is held.
func TestLRUBoundHolds(t *testing.T) {
	t.Parallel()
	const budget = 1000
	lru := New(budget, byLength)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 2000 {
				k := fmt.Sprint(rng.IntN(200))
				if rng.IntN(3) == 0 {
					lru.Get(k)
					continue
				}
				v := make([]byte, rng.IntN(120))
				lru.Put(k, string(v))
				if used, _ := lru.Used(); used > budget {
					t.Errorf("%d used of a budget of %d", used, budget)
					return
				}
			}
		}()
	}
	wg.Wait()
	used, n := lru.Used()
	var sum int64
	for el := lru.order.Front(); el != nil; el = el.Next() {
		sum += el.Value.(*entry[string, string]).cost
	}
	if sum != used || n != lru.order.Len() {
		t.Errorf("counted %d in %d entries, hold %d in %d", used, n, sum, lru.order.Len())
	}
}
