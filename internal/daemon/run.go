package daemon

import (
	"context"
	"errors"
	"sync"

	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
)

// Inbox is where inbound mail comes from, handing over the mail that
// arrived together (HandleBatch): mailer.Inbox, which reads an IMAP
// mailbox, or mailer.LMTPServer, to which the mail server delivers.
type Inbox interface {
	RunBatch(ctx context.Context, h mailer.BatchHandler) error
}

// Run runs the whole service until ctx is done: each inbox (IMAP, LMTP,
// or both) feeding HandleBatch, the outbox sender, the deadline schedule
// and retention; with WithLease, the IMAP inbox and retention only while
// this node holds the reader lease (internal/lease), the rest on every
// node. The inboxes and the
// sender reconnect by themselves, so only a cancelled ctx stops it. Two
// inboxes may hand over the same mail (a mail server that delivers it
// both to a mailbox pbem reads and to pbem by LMTP): its Message-ID makes
// it applied once.
func (s *Service) Run(ctx context.Context, ins []Inbox, c outbox.Courier, oc outbox.Config, schedule string) error {
	if err := s.keyRatingsByMailbox(ctx); err != nil {
		return err
	}
	out, err := s.Outbox(c, oc)
	if err != nil {
		return err
	}
	// The name first: the outbox frees the claims made under it as it
	// starts, and the reader lease is held under it (lease.Node.TakeName).
	if err := s.node.TakeName(ctx); err != nil {
		return err
	}
	defer s.node.ReleaseName(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 4+len(ins))
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
	// The mailbox reader and retention run on the node that holds the
	// reader lease (internal/lease): one IMAP reader keeps the mailbox's cursor
	// simple, and one deleter suffices. Mail delivered by LMTP is taken,
	// and the outbox and the sweeps run, on every node: the outbox claims
	// what it sends (store.ClaimOutgoing), and each sweep item's
	// transaction checks again that the item is still due, so that two
	// nodes sweeping at once do it once.
	held := lease.NewWork(s.log)
	for _, in := range ins {
		if !pushed(in) {
			held.Add("inbox", func(ctx context.Context) error { return in.RunBatch(ctx, s.HandleBatch) })
			continue
		}
		held.LMTP = true
		start("inbox", func() error { return in.RunBatch(ctx, s.HandleBatch) })
	}
	start("outbox", func() error { return out.Run(ctx) })
	start("deadlines", func() error { return s.sweeper.RunDeadlines(ctx, schedule) })
	held.Add("retention", func(ctx context.Context) error {
		return s.sweeper.RunRetention(ctx, s.cfg.RetentionEvery, s.cfg.RetainMail)
	})
	start("lease", func() error { return s.node.Hold(ctx, held) })
	start("node name", func() error { return s.node.KeepName(ctx) }) // alone: returns at once
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// Outbox is the sender of the mail s queues, delivering through c with
// cfg: it shares s's store, logger, clock and observer, claims mail under
// s's node name (NodeName), and s wakes it whenever a commit of this
// node queued mail (wakeOutbox): an answer goes out at once from the
// node that took the mail.
func (s *Service) Outbox(c outbox.Courier, cfg outbox.Config) (*outbox.Outbox, error) {
	// The key is read once, when the outbox is made; no context is
	// given here, and the read is one row.
	key, err := s.bounces.get(context.Background(), s.store)
	if err != nil {
		return nil, err
	}
	return outbox.New(s.store, s.cfg.Address, c, cfg, outbox.WithNode(s.NodeName()),
		outbox.WithLogger(s.log), outbox.WithClock(s.now), outbox.WithObserver(s.obs), outbox.WithWake(s.wake),
		outbox.WithBounceKey(key, s.cfg.Separator), outbox.WithRefused(s.actOnUnreachable))
}

// NodeName is the name this node goes by among the nodes on its
// database: its lease's (WithLease), or lease.DefaultNodeName.
func (s *Service) NodeName() string { return s.node.Name() }

// TakeNodeName makes this process the node of its lease's name
// (WithLease) before anything acts under that name (lease.Node.TakeName):
// it returns a *lease.NameInUseError if a live node holds it. Run calls it
// when it has not been called; pbem serve calls it first, so that a node
// refused opens no listener. Without a lease it does nothing.
func (s *Service) TakeNodeName(ctx context.Context) error { return s.node.TakeName(ctx) }

// ReleaseNodeName gives the name up when Run will not be called after
// TakeNodeName (pbem serve failed to start); Run releases it itself.
func (s *Service) ReleaseNodeName(ctx context.Context) { s.node.ReleaseName(ctx) }

// pushed reports whether mail comes to the inbox by itself, delivered to
// this node (LMTP): every node takes such mail, lease or not.
func pushed(in Inbox) bool {
	_, ok := in.(*mailer.LMTPServer)
	return ok
}

// wakeOutbox tells the sender loop that mail is waiting.
func (s *Service) wakeOutbox() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
