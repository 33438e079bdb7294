package daemon

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/pbem/pbem/store"
)

// SendFunc sends one raw message, unchanged, to one recipient.
type SendFunc func(ctx context.Context, from string, to []string, raw []byte) error

// OutboxConfig tunes the sender loop.
type OutboxConfig struct {
	Poll        time.Duration             // how often to look for due mail when not woken; default 5 s
	Batch       int                       // mails taken per look; default 20
	MaxAttempts int                       // attempts before a mail is given up; default 12
	Permanent   func(error) bool          // whether a send error will never pass (a 5xx reply)
	Backoff     func(n int) time.Duration // wait after the n-th failure; default exponential, 30 s to 1 h
}

func (c OutboxConfig) defaults() OutboxConfig {
	if c.Poll <= 0 {
		c.Poll = 5 * time.Second
	}
	if c.Batch <= 0 {
		c.Batch = 20
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 12
	}
	if c.Permanent == nil {
		c.Permanent = func(error) bool { return false }
	}
	if c.Backoff == nil {
		c.Backoff = backoff
	}
	return c
}

// backoff is 30 s doubled per failure up to an hour, with jitter so that
// mails that failed together do not retry together.
func backoff(n int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	d = min(d, time.Hour)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// wakeOutbox tells the sender loop that mail is waiting.
func (s *Service) wakeOutbox() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// RunOutbox sends queued mail until ctx is done: each mail is marked sent
// only after the server took it, so a crash in between sends it again with
// the same Message-ID, which mail clients recognise as the same mail.
func (s *Service) RunOutbox(ctx context.Context, send SendFunc, cfg OutboxConfig) error {
	cfg = cfg.defaults()
	for {
		n, err := s.SendDue(ctx, send, cfg)
		if err != nil && ctx.Err() == nil {
			s.log.Error("outbox", "err", err)
		}
		if n == cfg.Batch {
			continue // there may be more
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
		case <-time.After(cfg.Poll):
		}
	}
}

// SendDue sends the mail that is due now, at most one batch, and reports
// how many it took.
func (s *Service) SendDue(ctx context.Context, send SendFunc, cfg OutboxConfig) (int, error) {
	cfg = cfg.defaults()
	due, err := s.store.DueOutgoing(ctx, s.now(), cfg.Batch)
	if err != nil {
		return 0, err
	}
	for _, o := range due {
		sendErr := send(ctx, s.cfg.Address, []string{o.To}, o.Raw)
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		err := s.store.Tx(ctx, func(tx *store.Tx) error {
			switch {
			case sendErr == nil:
				return tx.MarkSent(ctx, o.ID, s.now())
			case cfg.Permanent(sendErr) || o.Attempts+1 >= cfg.MaxAttempts:
				return tx.MarkDead(ctx, o.ID, sendErr.Error())
			default:
				return tx.MarkFailed(ctx, o.ID, sendErr.Error(), s.now().Add(cfg.Backoff(o.Attempts+1)))
			}
		})
		if err != nil {
			return 0, err
		}
		if sendErr != nil {
			s.log.Warn("send failed", "to", o.To, "message_id", o.MessageID, "attempt", o.Attempts+1, "err", sendErr)
		} else {
			s.log.Info("sent", "to", o.To, "message_id", o.MessageID)
		}
	}
	return len(due), nil
}
