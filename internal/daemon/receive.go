package daemon

import (
	"context"
	"runtime"
	"sync"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// This file is where an inbound mail enters the turn loop: the inbox
// hands it over (HandleBatch, HandleMail), and it is read and judged,
// once (read, the intake stage: pure, on every core). commit.go then
// commits it, apply.go is its work in the transaction, and aside.go
// sets aside a mail that keeps failing.

// HandleBatch handles inbound messages in their order and commits them
// together: the inbox hands over the mail that arrived at once (a
// mailer.BatchHandler), and one transaction, one fsync, carries all of
// it. This is group commit. Reading the mails (MIME, charsets, the
// parser), the part that needs no state, runs on every core before the
// transaction; applying them runs in the one writer transaction, in UID
// order, so mails of one game keep their order and every mail sees the
// effects of those before it (commit).
//
// HandleBatch reports how many of msgs are committed; the inbox marks
// those and moves on. Exactly once holds as for HandleMail: each mail's
// effects and the IMAP cursor past it are in the same commit, so a crash
// anywhere leaves every mail either wholly applied and past the cursor,
// or not applied at all and read again (docs/exactly-once.md).
func (s *Service) HandleBatch(ctx context.Context, msgs []mailer.Message) (int, error) {
	read := s.readAll(msgs)
	work, cancel := grace.Detach(ctx, grace.Shutdown)
	defer cancel()
	if err := s.loadBounceKey(work, read); err != nil {
		return 0, err
	}
	n, err := s.commit(work, read)
	s.actOnUnreachableDue(work)
	return n, err
}

// HandleMail handles one inbound message in one transaction. It returns an
// error only while the message is to be offered again; everything about
// the message itself is answered to its sender.
//
// Work already begun finishes when ctx is cancelled (within grace.Shutdown):
// a stop never cuts a transaction short. A mail whose handling fails is
// tried again, tries.Max times in all unless the database itself is what
// fails; then it is set aside (failed), so that one mail, or one broken
// game, never stalls the mail behind it.
func (s *Service) HandleMail(ctx context.Context, m mailer.Message) error {
	read := []*readInbound{s.read(m)}
	work, cancel := grace.Detach(ctx, grace.Shutdown)
	defer cancel()
	if err := s.loadBounceKey(work, read); err != nil {
		return err
	}
	_, err := s.commit(work, read)
	s.actOnUnreachableDue(work)
	return err
}

// readAll reads msgs in parallel (read), one worker per core: reading is
// pure CPU work on each mail's own bytes.
func (s *Service) readAll(msgs []mailer.Message) []*readInbound {
	out := make([]*readInbound, len(msgs))
	workers := min(runtime.GOMAXPROCS(0), len(msgs))
	if workers <= 1 {
		// One mail (the usual batch by LMTP, and often by IMAP) or one
		// processor: no goroutine to hand it to.
		for i, m := range msgs {
			out[i] = s.read(m)
		}
		return out
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = s.read(msgs[i])
			}
		}()
	}
	for i := range msgs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// readInbound is a mail as intake read and judged it before its
// transaction, and the work that will carry its effects.
type readInbound struct {
	intake.Mail
	// failed is why the mail could not be read at all: the parser
	// panicked on it (a bug). Its work fails with it, so that it is
	// counted and, in the end, set aside like any mail that fails.
	failed error
	t      *work
}

// read reads and judges m (intake.Read): the one time the daemon reads a
// mail. It touches no state, so that a batch of mails can be read in
// parallel (HandleBatch); a panic in it is the mail's failure, never the
// daemon's.
func (s *Service) read(m mailer.Message) *readInbound {
	cfg := s.intakeConfig()
	in, err := s.intakeRead(cfg, m)
	if err != nil {
		in = intake.Unread(cfg, m)
	}
	return &readInbound{Mail: in, failed: err, t: &work{Service: s, msg: in.Message, from: in.From, key: in.Key}}
}

// intakeRead is intake.Read with a panic caught (tries.Catch).
func (s *Service) intakeRead(cfg intake.Config, m mailer.Message) (in intake.Mail, err error) {
	defer tries.Catch(&err)
	return s.readMail(cfg, m), nil
}

// intakeConfig is what intake needs of the service's configuration.
func (s *Service) intakeConfig() intake.Config {
	return intake.Config{
		Address: s.cfg.Address, Name: s.cfg.Name, Separator: s.cfg.Separator, Mailbox: s.cfg.Mailbox,
		MaxMessageBytes: s.cfg.MaxMessageBytes, OwnMarkers: s.markers, Service: s.service, TrustAuthServID: s.cfg.TrustAuthServID,
		NormalizeAddress: store.NormalizeAddress, SentAs: store.SentAs,
	}
}
