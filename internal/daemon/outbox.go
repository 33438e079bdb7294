package daemon

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/pbem/pbem/store"
)

// SendFunc sends one raw message, unchanged, to one recipient.
type SendFunc func(ctx context.Context, from string, to []string, raw []byte) error

// OutboxConfig tunes the sender loop. Every field is a value to use:
// build it with OutboxFrom (config.Default() holds the defaults).
type OutboxConfig struct {
	Poll        time.Duration    // how often to look for due mail when not woken
	Batch       int              // mails taken per look
	MaxAttempts int              // attempts before a mail is given up
	RetryMin    time.Duration    // wait after a mail's first failure, doubled per failure...
	RetryMax    time.Duration    // ...up to this, with jitter (backoff)
	Permanent   func(error) bool // whether a send error will never pass (a 5xx reply)
	// Unreachable says whether a send error means that no session with
	// the mail server could be opened (connection refused, no route,
	// TLS or AUTH failed): an error about the server or pbem's
	// configuration, not about the mail. Such a failure stops the batch
	// and costs the mail no attempt; the outbox tries again after
	// 1s, 2s, 4s… up to RetryMin, so that a mail server's restart holds
	// mail back for seconds, not for a mail's backoff. Nil: never.
	Unreachable func(error) bool

	// after is what RunOutbox waits on; nil is time.After. Tests set it
	// to see every wait and end it at once.
	after func(time.Duration) <-chan time.Time
}

// check refuses an OutboxConfig that would never send, or never stop
// trying.
func (c OutboxConfig) check() error {
	if c.Poll <= 0 || c.Batch <= 0 || c.MaxAttempts <= 0 || c.RetryMin <= 0 || c.RetryMax < c.RetryMin || c.Permanent == nil {
		return fmt.Errorf("daemon: OutboxConfig{Poll: %s, Batch: %d, MaxAttempts: %d, RetryMin: %s, RetryMax: %s, Permanent set: %t} has a field unset (build it with OutboxFrom; config.Default() holds the defaults)",
			c.Poll, c.Batch, c.MaxAttempts, c.RetryMin, c.RetryMax, c.Permanent != nil)
	}
	return nil
}

// backoff is how long to wait after a mail's n-th failure: RetryMin
// doubled per failure up to RetryMax, with jitter so that mails that
// failed together do not retry together.
func (c OutboxConfig) backoff(n int) time.Duration {
	d := c.RetryMin
	for i := 1; i < n && d < c.RetryMax; i++ {
		d *= 2
	}
	d = min(d, c.RetryMax)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// reconnectDelay is how long to wait after the n-th failure in a row to
// reach the mail server: a second, doubled per failure, up to RetryMin.
func (c OutboxConfig) reconnectDelay(n int) time.Duration {
	return min(time.Second<<min(n-1, 16), c.RetryMin)
}

func (c OutboxConfig) unreachable(err error) bool {
	return c.Unreachable != nil && c.Unreachable(err)
}

func (c OutboxConfig) wait(d time.Duration) <-chan time.Time {
	if c.after != nil {
		return c.after(d)
	}
	return time.After(d)
}

// unreachableError is SendDue's report that it stopped because no
// session with the mail server could be opened.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string {
	return "daemon: outbox: mail server unreachable: " + e.err.Error()
}
func (e *unreachableError) Unwrap() error { return e.err }

// wakeOutbox tells the sender loop that mail is waiting.
func (s *Service) wakeOutbox() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// RunOutbox sends queued mail until ctx is done: each mail is marked sent
// only after the server took it, so a crash in between sends it again with
// the same Message-ID, which mail clients recognise as the same mail. The
// marks of one batch are written together, in one transaction, after the
// batch is sent: a crash re-sends at most one batch.
//
// While the store cannot write (a full disk), sending stops: SendDue sends
// nothing more once a batch's marks could not be written, and RunOutbox
// backs off, doubling from a second to a minute, until a write succeeds.
// An outage so costs at most one extra copy of one batch, and only if pbem
// is stopped before the disk recovers (the marks it owes are kept in
// memory).
//
// When no session with the mail server can be opened (cfg.Unreachable),
// RunOutbox tries again after 1s, 2s, 4s… up to RetryMin, and the mail
// keeps its place and its attempts. As it starts, RunOutbox makes the
// mail that earlier failures deferred due at once (store's
// RetryDeferred): a restart is often the fix of what made sending fail.
func (s *Service) RunOutbox(ctx context.Context, send SendFunc, cfg OutboxConfig) error {
	if err := cfg.check(); err != nil {
		return err
	}
	var retried int64
	err := s.store.Tx(ctx, func(tx *store.Tx) (err error) {
		retried, err = tx.RetryDeferred(ctx, s.now())
		return err
	})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		// Not worth stopping for: the mail goes when its backoff ends.
		s.log.Warn("outbox: could not make deferred mail due at start", "err", err)
	case retried > 0:
		s.log.Info("outbox: deferred mail is due at once after the start", "mails", retried)
	}
	failures, down := 0, 0
	for {
		n, err := s.SendDue(ctx, send, cfg)
		wait := cfg.Poll
		var unreachable *unreachableError
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &unreachable):
			failures = 0
			down++
			wait = cfg.reconnectDelay(down)
			s.log.Warn("outbox: cannot reach the mail server; will try again", "err", unreachable.err, "delay", wait)
		case err != nil:
			failures++
			down = 0
			wait = min(time.Second<<min(failures-1, 6), time.Minute)
			s.log.Error("outbox: cannot go on; will try again", "err", err, "delay", wait)
		case n == cfg.Batch:
			failures, down = 0, 0
			continue // there may be more
		default:
			failures, down = 0, 0
		}
		timer := cfg.wait(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
			if err != nil {
				// New mail does not make a failing store write again,
				// nor bring the mail server back: wait out the backoff.
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-timer:
				}
			}
		case <-timer:
		}
	}
}

// owedMark is the outcome of an attempt to send a mail that the store
// could not record: it is written before anything else is sent.
type owedMark struct {
	out     store.Outgoing
	sendErr error
	at      time.Time
}

// SendDue sends the mail that is due now, at most one batch, and reports
// how many it took. It first writes the marks it owes from an earlier
// call, then sends the batch, one mail after the other (the sender reuses
// its SMTP session), and writes the outcome of every mail of the batch in
// one transaction: one fsync for the batch rather than one per mail. If
// that transaction fails, the marks are kept in memory and owed, SendDue
// returns the error, and nothing more is sent until they are written.
//
// A stop (ctx done) lets the mail in hand go out, sends no more, and
// marks what went. A mail that finds the mail server unreachable
// (cfg.Unreachable) ends the batch unmarked: it keeps its place and its
// attempts, and SendDue returns, after the marks of the mails before
// it, an error RunOutbox knows to retry within seconds.
func (s *Service) SendDue(ctx context.Context, send SendFunc, cfg OutboxConfig) (int, error) {
	if err := cfg.check(); err != nil {
		return 0, err
	}
	if err := s.payOwedMarks(ctx, cfg); err != nil {
		return 0, err
	}
	due, err := s.store.DueOutgoing(ctx, s.now(), cfg.Batch)
	if err != nil {
		return 0, err
	}
	marks := make([]owedMark, 0, len(due))
	var unreachable error
	for _, o := range due {
		if ctx.Err() != nil {
			break // stopping: send no more, but mark what went
		}
		// A stop lets the mail in hand go out: cutting the connection
		// mid-DATA would leave it half-sent, to be sent again.
		work, cancel := detach(ctx, shutdownGrace)
		sendErr := send(work, s.cfg.Address, []string{o.To}, o.Raw)
		cancel()
		if sendErr != nil && cfg.unreachable(sendErr) {
			// Nothing about this mail, nor the ones after it, which
			// would find the server as unreachable.
			s.log.Warn("send failed: mail server unreachable", "to", o.To, "message_id", o.MessageID, "err", sendErr)
			s.obs.SendFailed(SendTemporary)
			unreachable = sendErr
			break
		}
		marks = append(marks, owedMark{out: o, sendErr: sendErr, at: s.now()})
	}
	work, cancel := detach(ctx, shutdownGrace)
	err = s.mark(work, cfg, marks)
	cancel()
	if err != nil {
		s.mu.Lock()
		s.owed = append(s.owed, marks...)
		s.mu.Unlock()
		return 0, fmt.Errorf("daemon: outbox: mark %d mails: %w", len(marks), err)
	}
	for _, m := range marks {
		s.marked(cfg, m)
	}
	if ctx.Err() != nil {
		return len(marks), ctx.Err()
	}
	if unreachable != nil {
		return len(marks), &unreachableError{unreachable}
	}
	return len(due), nil
}

// payOwedMarks writes the marks an earlier SendDue could not, in one
// transaction.
func (s *Service) payOwedMarks(ctx context.Context, cfg OutboxConfig) error {
	s.mu.Lock()
	owed := s.owed
	s.mu.Unlock()
	if len(owed) == 0 {
		return nil
	}
	if err := s.mark(ctx, cfg, owed); err != nil {
		return fmt.Errorf("daemon: outbox: mark %d mails (owed): %w", len(owed), err)
	}
	s.mu.Lock()
	s.owed = s.owed[len(owed):]
	s.mu.Unlock()
	for _, m := range owed {
		s.marked(cfg, m)
	}
	return nil
}

// mark records the outcomes of attempts to send, all in one transaction:
// each mail sent, failed (deferred with backoff) or dead.
func (s *Service) mark(ctx context.Context, cfg OutboxConfig, marks []owedMark) error {
	if len(marks) == 0 {
		return nil
	}
	return s.store.Tx(ctx, func(tx *store.Tx) error {
		for _, m := range marks {
			var err error
			switch {
			case m.sendErr == nil:
				err = tx.MarkSent(ctx, m.out.ID, m.at)
			case cfg.Permanent(m.sendErr) || m.out.Attempts+1 >= cfg.MaxAttempts:
				err = tx.MarkDead(ctx, m.out.ID, m.sendErr.Error())
			default:
				err = tx.MarkFailed(ctx, m.out.ID, m.sendErr.Error(), m.at.Add(cfg.backoff(m.out.Attempts+1)))
			}
			if errors.Is(err, store.ErrNotFound) {
				// The mail is no longer pending: nothing is owed for it.
				// Failing the batch for it would stop the outbox for
				// good, every later batch owing the same mark.
				s.log.Warn("outbox: a mail to mark was no longer pending", "message_id", m.out.MessageID)
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", m.out.MessageID, err)
			}
		}
		return nil
	})
}

// marked logs an attempt once its outcome is recorded, and reports it.
func (s *Service) marked(cfg OutboxConfig, m owedMark) {
	if m.sendErr == nil {
		s.log.Info("sent", "to", m.out.To, "message_id", m.out.MessageID)
		s.obs.Sent()
		return
	}
	class := SendTemporary
	if cfg.Permanent(m.sendErr) {
		class = SendPermanent
	}
	s.log.Warn("send failed", "to", m.out.To, "message_id", m.out.MessageID, "attempt", m.out.Attempts+1, "err", m.sendErr)
	s.obs.SendFailed(class)
}
