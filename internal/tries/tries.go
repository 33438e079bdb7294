// Package tries is what the turn loop and the sweeps share about work
// that fails: a count of failures by key, and running a piece of work so
// that a panic in it is an error, not a stopped loop.
package tries

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Counter counts the failures of pieces of work, by key, in memory:
// after a restart a piece gets its tries again, which bounds the cost of
// a poison piece to its tries per start.
type Counter struct {
	mu sync.Mutex
	n  map[string]int
}

// NewCounter makes an empty Counter.
func NewCounter() *Counter { return &Counter{n: map[string]int{}} }

// Fail counts one more failure of key and returns how many there were.
func (c *Counter) Fail(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[key]++
	return c.n[key]
}

// Forget drops key's count: it succeeded, or was set aside.
func (c *Counter) Forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.n, key)
}

// PanicError is a panic caught while doing a piece of work: a bug in
// pbem, which would recur every time the work is tried.
type PanicError struct {
	Value any
	Stack string
}

func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Safely runs f, turning a panic into a *PanicError, so that a bug sets
// that piece of work aside rather than stopping the loop.
func Safely(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return f()
}
