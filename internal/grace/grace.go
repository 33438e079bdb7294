// Package grace lets work begun before a stop finish: the transaction in
// hand, or the mail in the middle of its SMTP conversation, which a
// cancelled context would cut short and leave to be done again.
package grace

import (
	"context"
	"time"
)

// Detach gives work begun under ctx a context of its own that outlives
// ctx by grace: a stop lets the work in hand finish, for grace at most.
// The cancel function returned must be called once the work is done.
func Detach(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
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

// Shutdown is how long work already begun may go on after pbem was told
// to stop: the transaction in hand, and the mail in hand, finish; then
// the loops end.
const Shutdown = 10 * time.Second
