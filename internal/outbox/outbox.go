// Package outbox sends the mail the turn loop queued in the store, through
// a Courier (mailer.Sender over SMTP), and marks each mail sent, failed or
// dead in the store. It needs only the store, a logger, a clock and a
// channel that says mail was queued: it knows nothing of games or of the
// turn loop, which wires it (daemon.Service.Outbox).
//
// A mail is marked sent only after the server took it, so a crash in
// between sends it again with the same Message-ID, which mail clients
// recognise as the same mail. The marks of one batch are written
// together, in one transaction, after the batch is sent: a crash re-sends
// at most one batch.
//
// Every node on a database runs an outbox (issue 27). Each takes its
// batch by claiming it in the store under its node's name
// (store.ClaimOutgoing), for Config.Claim(): no other node sends those
// mails meanwhile. The marks end the claim. A node that dies mid-batch
// leaves its claimed mail to the others once the claim lapses, and the
// mail it had sent and not marked goes again: still at most one batch
// per death.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// Courier delivers mail. mailer.Sender is the courier of `pbem serve`;
// tests deliver into maps.
type Courier interface {
	// Deliver sends one raw message, unchanged, from from to the
	// recipients to.
	Deliver(ctx context.Context, from string, to []string, raw []byte) error
}

// CourierFunc is a function that delivers mail, as a Courier.
type CourierFunc func(ctx context.Context, from string, to []string, raw []byte) error

// Deliver calls f.
func (f CourierFunc) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	return f(ctx, from, to, raw)
}

// Observer is told what the outbox sends, so that an operator can see it
// (the metrics package counts it). Its methods are called after the mark
// they report has committed, and must not block.
type Observer interface {
	// Sent reports one mail the mail server took.
	Sent()
	// SendFailed reports one failed attempt to send a mail, by class.
	SendFailed(class SendFailure)
}

// SendFailure is the class of a failed attempt to send, reported to
// Observer.SendFailed; its text is the metrics label.
type SendFailure string

// Send failure classes.
const (
	SendTemporary SendFailure = "temporary" // tried again later
	SendPermanent SendFailure = "permanent" // the server refused for good (a 5xx reply)
)

type nopObserver struct{}

func (nopObserver) Sent()                  {}
func (nopObserver) SendFailed(SendFailure) {}

// Config tunes the sender loop. Every field is a value to use: build it
// with wiring.OutboxFrom (config.Default() holds the defaults).
type Config struct {
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
	// SendTimeout is the most one Deliver may take (mailer's
	// SenderConfig.Timeout): a claim lasts long enough to send a mail
	// begun while it had at least this long, and mark it (claim).
	SendTimeout time.Duration

	// after is what Run waits on; nil is time.After. Tests set it to see
	// every wait and end it at once.
	after func(time.Duration) <-chan time.Time
}

// check refuses a Config that would never send, or never stop trying.
func (c Config) check() error {
	if c.Poll <= 0 || c.Batch <= 0 || c.MaxAttempts <= 0 || c.RetryMin <= 0 || c.RetryMax < c.RetryMin || c.Permanent == nil || c.SendTimeout <= 0 {
		return fmt.Errorf("outbox: Config{Poll: %s, Batch: %d, MaxAttempts: %d, RetryMin: %s, RetryMax: %s, Permanent set: %t, SendTimeout: %s} has a field unset (build it with wiring.OutboxFrom; config.Default() holds the defaults)",
			c.Poll, c.Batch, c.MaxAttempts, c.RetryMin, c.RetryMax, c.Permanent != nil, c.SendTimeout)
	}
	return nil
}

// ClaimMargin is what a claim keeps beyond the sending of its last mail:
// time for the batch's marks to commit, and for the nodes' clocks to
// differ.
const ClaimMargin = 10 * time.Second

// Claim is how long a batch's claim lasts (store.ClaimOutgoing): twice
// the send timeout and ClaimMargin. The outbox starts a mail only while
// the claim has at least a send timeout and the margin left, so every
// mail it sends, and its mark, fall within the claim, and a batch of
// quick sends (milliseconds each) goes out whole under one claim. It is
// also how long a dead node's claimed mail waits for another node: 2m10s
// with mailer's default timeout of a minute.
func (c Config) Claim() time.Duration { return 2*c.SendTimeout + ClaimMargin }

// backoff is how long to wait after a mail's n-th failure: RetryMin
// doubled per failure up to RetryMax, with jitter so that mails that
// failed together do not retry together.
func (c Config) backoff(n int) time.Duration {
	d := c.RetryMin
	for i := 1; i < n && d < c.RetryMax; i++ {
		d *= 2
	}
	d = min(d, c.RetryMax)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// reconnectDelay is how long to wait after the n-th failure in a row to
// reach the mail server: a second, doubled per failure, up to RetryMin.
func (c Config) reconnectDelay(n int) time.Duration {
	return min(time.Second<<min(n-1, 16), c.RetryMin)
}

func (c Config) unreachable(err error) bool {
	return c.Unreachable != nil && c.Unreachable(err)
}

func (c Config) wait(d time.Duration) <-chan time.Time {
	if c.after != nil {
		return c.after(d)
	}
	return time.After(d)
}

// unreachableError is SendDue's report that it stopped because no
// session with the mail server could be opened.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string {
	return "outbox: mail server unreachable: " + e.err.Error()
}
func (e *unreachableError) Unwrap() error { return e.err }

// Outbox sends the store's queued mail from one address through a
// Courier. Run is its loop; SendDue is one look at the queue.
type Outbox struct {
	store   *store.Store
	node    string // whose claims: the node's name
	from    string // the envelope sender of every mail
	courier Courier
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	obs     Observer
	wake    <-chan struct{} // mail was queued; nil: Run polls only

	mu   sync.Mutex
	owed []owedMark // mails sent whose mark the store could not write

	// bounceKey, when set, gives each mail a bounce address of its own
	// as its envelope sender (mailer.BounceAddress), from from with
	// bounceSep: a bounce then names its mail and recipient.
	bounceKey []byte
	bounceSep string
	refused   func(context.Context) // WithRefused
}

// Option changes how an Outbox is made.
type Option func(*Outbox)

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(o *Outbox) { o.log = l } }

// WithClock sets the clock (tests use a fixed one).
func WithClock(now func() time.Time) Option { return func(o *Outbox) { o.now = now } }

// WithObserver sets who is told what the outbox sends.
func WithObserver(obs Observer) Option { return func(o *Outbox) { o.obs = obs } }

// WithNode sets the name the outbox claims mail under: its node's, unique
// among the nodes running on the database (lease.Config.Node). The
// default is "outbox", fit for an outbox alone on its database.
func WithNode(name string) Option { return func(o *Outbox) { o.node = name } }

// WithWake sets the channel on which whoever queues mail says so, after
// the commit: Run then looks at once rather than at its next poll. A
// sender must not block on it (a buffer of one, written with select).
func WithWake(wake <-chan struct{}) Option { return func(o *Outbox) { o.wake = wake } }

// WithBounceKey makes each mail's envelope sender a bounce address of
// its own (VERP, mailer.BounceAddress), signed with key, its token after
// sep. A permanent refusal at SMTP time is then also a hard bounce of
// the recipient (store.Tx.RecordBounce).
func WithBounceKey(key []byte, sep string) Option {
	return func(o *Outbox) { o.bounceKey, o.bounceSep = key, sep }
}

// New makes an outbox that sends st's queued mail from the address from
// through c. It refuses a Config that means nothing.
func New(st *store.Store, from string, c Courier, cfg Config, opts ...Option) (*Outbox, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	o := &Outbox{store: st, node: defaultNode, from: from, courier: c, cfg: cfg, log: slog.Default(), now: time.Now, obs: nopObserver{}}
	for _, opt := range opts {
		opt(o)
	}
	if o.node == "" {
		return nil, errors.New("outbox: the node name is empty")
	}
	return o, nil
}

// Run sends queued mail until ctx is done.
//
// While the store cannot write (a full disk), sending stops: SendDue sends
// nothing more once a batch's marks could not be written, and Run backs
// off, doubling from a second to a minute, until a write succeeds. An
// outage so costs at most one extra copy of one batch, and only if pbem
// is stopped before the disk recovers (the marks it owes are kept in
// memory).
//
// When no session with the mail server can be opened (Config.Unreachable),
// Run tries again after 1s, 2s, 4s… up to RetryMin, and the mail keeps its
// place and its attempts. As it starts, Run makes the mail that earlier
// failures deferred due at once (store's RetryDeferred): a restart is
// often the fix of what made sending fail. It also releases the claims
// its node name holds (store's ReleaseNodeClaims): a node started again
// under the name it died with sends at once the batch it died holding,
// rather than when the claim lapses.
func (o *Outbox) Run(ctx context.Context) error {
	var retried, released int64
	err := o.store.CommuteTx(ctx, func(tx *store.Tx) (err error) {
		if retried, err = tx.RetryDeferred(ctx, o.now()); err != nil {
			return err
		}
		released, err = tx.ReleaseNodeClaims(ctx, o.node)
		return err
	})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		// Not worth stopping for: the mail goes when its backoff ends,
		// or its claim lapses.
		o.log.Warn("outbox: could not make deferred mail due, nor release this node's old claims, at start", "err", err)
	default:
		if retried > 0 {
			o.log.Info("outbox: deferred mail is due at once after the start", "mails", retried)
		}
		if released > 0 {
			o.log.Info("outbox: mail this node claimed before it stopped is free again", "node", o.node, "mails", released)
		}
	}
	failures, down := 0, 0
	for {
		_, more, err := o.sendDue(ctx)
		wait := o.cfg.Poll
		var unreachable *unreachableError
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &unreachable):
			failures = 0
			down++
			wait = o.cfg.reconnectDelay(down)
			o.log.Warn("outbox: cannot reach the mail server; will try again", "err", unreachable.err, "delay", wait)
		case err != nil:
			failures++
			down = 0
			wait = min(time.Second<<min(failures-1, 6), time.Minute)
			o.log.Error("outbox: cannot go on; will try again", "err", err, "delay", wait)
		case more:
			failures, down = 0, 0
			continue // a batch's claim ran short: the rest is due
		default:
			failures, down = 0, 0
		}
		timer := o.cfg.wait(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-o.wake:
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

// defaultNode is the claims' name of an outbox given none.
const defaultNode = "outbox"

// owedMark is the outcome of an attempt to send a mail that the store
// could not record: it is written before anything else is sent.
type owedMark struct {
	out     store.Outgoing
	sendErr error
	at      time.Time
	bounced bounced // whether the mail was withheld or a probe (bounce.go)
}

// SendDue sends the mail that is due now, batch after batch, and reports
// how many mails it took. It first writes the marks it owes from an
// earlier call, then claims a batch (store.ClaimOutgoing), reads which of
// its recipients bounced (one statement for the batch), sends it one mail
// after the other (the courier reuses its SMTP session), and writes the
// outcome of every mail of the batch in one transaction: one fsync for
// the batch rather than one per mail. That transaction also claims the
// next batch, if any mail is due, so that while mail keeps coming (the
// turn loop queues answers as the outbox sends) each batch costs one
// transaction, not two; SendDue returns once a claim finds nothing due.
// If a marks' transaction fails, the marks are kept in memory and owed,
// SendDue returns the error, and nothing more is sent until they are
// written.
//
// A stop (ctx done) lets the mail in hand go out, sends no more, and
// marks what went. A mail that finds the mail server unreachable
// (Config.Unreachable) ends the batch unmarked: it keeps its place and
// its attempts, and SendDue returns, after the marks of the mails before
// it, an error Run knows to retry within seconds. A batch whose claim has
// less than a send timeout and ClaimMargin left ends too (a slow server):
// the mail not sent, in these three cases, is released with the marks,
// for any node to send at once, and no next batch is claimed.
func (o *Outbox) SendDue(ctx context.Context) (int, error) {
	n, _, err := o.sendDue(ctx)
	return n, err
}

// sendDue is SendDue; more says that it left claimed mail unsent because
// its claim ran short, and that Run should look again at once.
func (o *Outbox) sendDue(ctx context.Context) (n int, more bool, err error) {
	if err := o.payOwedMarks(ctx); err != nil {
		return 0, false, err
	}
	var b batch
	err = o.store.CommuteTx(ctx, func(tx *store.Tx) (err error) {
		b, err = o.claim(ctx, tx)
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("outbox: claim: %w", err)
	}
	for len(b.due) > 0 {
		s := o.send(ctx, b)
		work, cancel := grace.Detach(ctx, grace.Shutdown)
		next, err := o.markAndClaim(work, s.marks, s.unsent, s.whole && ctx.Err() == nil)
		cancel()
		if err != nil {
			o.mu.Lock()
			o.owed = append(o.owed, s.marks...)
			o.mu.Unlock()
			return n, false, fmt.Errorf("outbox: mark %d mails: %w", len(s.marks), err)
		}
		for _, m := range s.marks {
			o.marked(m)
		}
		o.tellRefused(ctx, s.marks)
		n += len(s.marks)
		switch {
		case ctx.Err() != nil:
			return n, false, ctx.Err()
		case s.unreachable != nil:
			return n, false, &unreachableError{s.unreachable}
		case !s.whole:
			return n + len(s.unsent), true, nil
		}
		b = next
	}
	return n, false, nil
}

// payOwedMarks writes the marks an earlier SendDue could not, in one
// transaction.
func (o *Outbox) payOwedMarks(ctx context.Context) error {
	o.mu.Lock()
	owed := o.owed
	o.mu.Unlock()
	if len(owed) == 0 {
		return nil
	}
	if err := o.mark(ctx, owed, nil); err != nil {
		return fmt.Errorf("outbox: mark %d mails (owed): %w", len(owed), err)
	}
	o.mu.Lock()
	o.owed = o.owed[len(owed):]
	o.mu.Unlock()
	for _, m := range owed {
		o.marked(m)
	}
	return nil
}

// mark records the outcomes of attempts to send, all in one transaction:
// each mail sent, failed (deferred with backoff) or dead; and releases
// the claims of the mails unsent, claimed and not tried.
func (o *Outbox) mark(ctx context.Context, marks []owedMark, unsent []int64) error {
	_, err := o.markAndClaim(ctx, marks, unsent, false)
	return err
}

// marked logs an attempt once its outcome is recorded, and reports it.
func (o *Outbox) marked(m owedMark) {
	if m.bounced == withheld {
		o.log.Info("withheld: the address bounced", "to", m.out.To, "message_id", m.out.MessageID)
		return
	}
	if m.sendErr == nil {
		o.log.Info("sent", "to", m.out.To, "message_id", m.out.MessageID)
		o.obs.Sent()
		return
	}
	class := SendTemporary
	if o.cfg.Permanent(m.sendErr) {
		class = SendPermanent
	}
	o.log.Warn("send failed", "to", m.out.To, "message_id", m.out.MessageID, "attempt", m.out.Attempts+1, "err", m.sendErr)
	o.obs.SendFailed(class)
}

// envelopeFrom is the envelope sender of m: its own bounce address when
// the outbox has a bounce key, the service address otherwise.
func (o *Outbox) envelopeFrom(m store.Outgoing) string {
	if o.bounceKey == nil {
		return o.from
	}
	return mailer.BounceAddress(o.from, o.bounceSep, o.bounceKey, m.ID, m.To)
}

// markRefused gives up a mail the server refused for good (a 5xx at
// RCPT or DATA) and, with bounce addresses on, counts the refusal as a
// hard bounce of its recipient, as a DSN saying so would be.
func (o *Outbox) markRefused(ctx context.Context, tx *store.Tx, m owedMark) error {
	if err := tx.MarkDead(ctx, m.out.ID, m.sendErr.Error()); err != nil {
		return err
	}
	if o.bounceKey == nil {
		return nil
	}
	_, err := tx.RecordBounce(ctx, m.out.To, true, "refused at SMTP time", m.at, mailer.SoftBounceDays)
	return err
}
