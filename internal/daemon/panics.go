package daemon

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// A piece of work (a mail, a deadline, a digest) runs under safely, so
// that a bug in pbem sets that piece aside rather than stopping the loop
// (quarantine.go), and under detach, so that a stop lets the transaction
// in hand finish rather than cutting it off.

// shutdownGrace is how long work already begun may go on after the
// service was told to stop: the transaction in hand finishes, then the
// loops end.
const shutdownGrace = 10 * time.Second

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

// detach gives work begun under ctx a context of its own that outlives
// ctx by grace: a stop lets the transaction in hand finish.
func detach(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-work.Done():
		}
	})
	return work, func() { stop(); cancel() }
}
