package daemon

import (
	"fmt"
	"runtime/debug"
)

// A piece of work (a mail, a deadline, a digest) runs under safely, so
// that a bug in pbem sets that piece aside rather than stopping the loop
// (aside.go), and under grace.Detach, so that a stop lets the
// transaction in hand finish rather than cutting it off.

// panicError is a panic caught while doing a piece of work: a bug in
// pbem, which would recur every time the work is tried.
type panicError struct {
	value any
	stack string
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// safely runs f, turning a panic into a panicError.
func safely(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: string(debug.Stack())}
		}
	}()
	return f()
}
