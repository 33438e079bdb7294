package daemon

import (
	"context"
	"errors"
	"sync"

	"github.com/pbem/pbem/mailer"
)

// Inbox is where inbound mail comes from: mailer.Inbox, handing over
// the mail that arrived together (HandleBatch).
type Inbox interface {
	RunBatch(ctx context.Context, h mailer.BatchHandler) error
}

// Run runs the whole service until ctx is done: the inbox feeding
// HandleBatch, the outbox sender, the deadline schedule and retention.
// The inbox and the sender reconnect by themselves, so only a cancelled
// ctx stops it.
func (s *Service) Run(ctx context.Context, in Inbox, send SendFunc, oc OutboxConfig, schedule string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	start := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := f()
			if err != nil && !errors.Is(err, context.Canceled) {
				s.log.Error("stopped", "part", name, "err", err)
				errs <- err
				cancel()
			}
		}()
	}
	start("inbox", func() error { return in.RunBatch(ctx, s.HandleBatch) })
	start("outbox", func() error { return s.RunOutbox(ctx, send, oc) })
	start("deadlines", func() error { return s.RunDeadlines(ctx, schedule) })
	start("retention", func() error { return s.RunRetention(ctx, s.cfg.RetentionEvery, s.cfg.RetainMail) })
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}
