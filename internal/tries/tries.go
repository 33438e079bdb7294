// Package tries is what the turn loop and the sweeps share about work
// that fails: how often a piece of work may fail before it is set aside,
// a count of failures by key, and running a piece of work so that a
// panic in it is an error, not a stopped loop.
//
// One bad mail, game or deadline must never stall the rest
// (docs/operations.md, "A mail set aside" and "A game set aside"). Work
// that fails is tried again, a few times: most failures pass (a busy
// disk). Work that keeps failing is set aside, and the loop goes on with
// the next piece of work. A failure that is no fault of the work (the
// database itself full, read-only or failing to write) is never
// counted: nothing can be recorded then, and the same work is simply
// tried again once the disk recovers.
package tries

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
)

// Max is how often the same piece of work may fail before it is set
// aside. Three tries ride out a passing fault, and cost a stalled inbox
// two retry delays at most.
const Max = 3

// Counter counts the failures of pieces of work, by key, in memory:
// after a restart a piece gets its tries again, which bounds the cost of
// a poison piece to its tries per start.
type Counter struct {
	log *slog.Logger
	// notCounted says which failures are no fault of the work
	// (store.Unavailable): they are logged and never counted.
	notCounted func(error) bool

	mu sync.Mutex
	n  map[string]int
}

// NewCounter makes an empty Counter, which logs failures to log and
// does not count those notCounted says are no fault of the work.
func NewCounter(log *slog.Logger, notCounted func(error) bool) *Counter {
	return &Counter{log: log, notCounted: notCounted, n: map[string]int{}}
}

// Failed logs a failed try of key's work, what it was, with attrs, and
// reports whether the work is to be set aside now: it has failed Max
// times.
func (c *Counter) Failed(key, what string, err error, attrs ...any) bool {
	if c.notCounted(err) {
		c.log.Warn(what+": the database cannot take it now; will try again", append(attrs, "err", err)...)
		return false
	}
	n := c.Fail(key)
	attrs = append(attrs, "attempt", n, "of", Max, "err", err)
	var p *PanicError
	if errors.As(err, &p) {
		attrs = append(attrs, "stack", p.Stack)
	}
	c.log.Error(what+" failed", attrs...)
	return n >= Max
}

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

// Catch, deferred first thing by a function that returns an error
// through err, turns a panic in that function into a *PanicError in err,
// so that a bug sets that piece of work aside rather than stopping the
// loop:
//
//	func (w *work) handle() (err error) {
//		defer tries.Catch(&err)
//		…
//	}
func Catch(err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Value: v, Stack: string(debug.Stack())}
	}
}
