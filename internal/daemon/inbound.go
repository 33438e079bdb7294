package daemon

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Outcome is what became of an inbound mail (intake.Outcome): intake's
// verdict gives it for a mail pbem does not act on, the daemon for the
// rest.
type Outcome = intake.Outcome

// Outcomes recorded for inbound mail.
const (
	OutcomeHandling = intake.OutcomeHandling
	OutcomeApplied  = intake.OutcomeApplied
	OutcomeAnswered = intake.OutcomeAnswered
	OutcomeRefused  = intake.OutcomeRefused
	OutcomeIgnored  = intake.OutcomeIgnored
	OutcomeUnusable = intake.OutcomeUnusable
	OutcomeFailed   = intake.OutcomeFailed
)

// work is one unit of the turn loop's work: one inbound mail, one sweep
// item (a deadline, a reminder, a digest, a lapse, a return) or one admin
// act, done in one transaction. Its methods are the loop's handlers, and
// it holds what they share, so that they need not pass it on: the
// service, the context and transaction it runs in (bound by in, again
// for a retried transaction), the mail being answered and the mails it
// will send.
type work struct {
	*Service
	ctx context.Context
	tx  *store.Tx

	msg       parser.Message
	from      string // the sender's bare, normalised address
	token     string // the seat token it was addressed to, if any
	key       string // what identifies the inbound message, for outgoing ids
	inboundID int64  // its record; 0 for work no mail caused (a deadline)
	gameID    int64
	outcome   Outcome
	detail    string
	// fromSubject: the commands were read from the Subject, which the
	// first answer to the sender says (firstAnswerNote).
	fromSubject bool
	// out are the mails the work will send, and what became of them
	// (outmail.go, internal/outgoing).
	out outgoing.Mails
	// gameAside is set when the work set a game aside.
	gameAside bool
	// bounds is what the mail did of what one mail may do once, and the
	// tables its vacation news is for (bounds.go).
	bounds mailBounds
}

// in binds w to the transaction it runs in, and returns it. What w
// gathers starts afresh: a transaction may be tried again.
func (w *work) in(ctx context.Context, tx *store.Tx) *work {
	w.ctx, w.tx = ctx, tx
	w.out.Reset()
	w.gameAside = false
	return w
}

// workIn is a unit of work with no mail of its own, in tx: for what
// reads or writes a game outside the loop (a page, an admin's act).
func (s *Service) workIn(ctx context.Context, tx *store.Tx) *work {
	return &work{Service: s, ctx: ctx, tx: tx}
}

// subjectNote is what the first answer says when commands came from the
// Subject.
var subjectNote = templates.Say.CommandFromSubject()

// firstAnswerNote returns the lines to put first in a mail to addr: the
// Subject note, once, in the first answer to the sender.
func (w *work) firstAnswerNote(addr string) []string {
	if !w.fromSubject || addr != w.from {
		return nil
	}
	w.fromSubject = false
	return []string{subjectNote}
}

// HandleMail handles one inbound message in one transaction. It returns an
// error only while the message is to be offered again; everything about
// the message itself is answered to its sender.
//
// Work already begun finishes when ctx is cancelled (within grace.Shutdown):
// a stop never cuts a transaction short. A mail whose handling fails is
// tried again, maxTries times in all unless the database itself is what
// fails; then it is set aside (setMailAside), so that one mail, or one
// broken game, never stalls the mail behind it.
func (s *Service) HandleMail(ctx context.Context, m mailer.Message) error {
	work, cancel := grace.Detach(ctx, grace.Shutdown)
	defer cancel()
	key := mailKey(m)
	err := tries.Safely(func() error { return s.handleMail(work, m) })
	if err == nil {
		s.tries.Forget(key)
		return nil
	}
	if work.Err() != nil {
		return err // stopped while working: offered again at the next start
	}
	if !s.failure(key, "handling a mail", err, "uid", m.UID) {
		return err
	}
	if err := s.setMailAside(work, m, err); err != nil {
		return err
	}
	s.tries.Forget(key)
	return nil
}

// mailKey names an inbound mail among the failures counted (tries). It
// is made from m alone, without reading it, so that a mail whose reading
// fails is counted too.
func mailKey(m mailer.Message) string {
	if m.UID == 0 && m.ID != "" {
		return "mail:" + m.Mailbox + ":" + m.ID
	}
	return fmt.Sprintf("mail:%s:%d:%d", m.Mailbox, m.UIDValidity, m.UID)
}

// handleMail is HandleMail's work: in the transaction of the mail's
// game (gameOf) when it has one, beside other games' mail.
func (s *Service) handleMail(ctx context.Context, m mailer.Message) error {
	in := s.read(m)
	err := s.store.GameTx(ctx, s.gameOf(ctx, in), func(tx *store.Tx) error { return in.t.in(ctx, tx).handleRead(in) })
	if err != nil {
		return err
	}
	s.handled(in)
	return nil
}

// readInbound is a mail as intake read and judged it before its
// transaction, and the turn that will carry its effects.
type readInbound struct {
	intake.Mail
	t *work
}

// read reads and judges m (intake.Read): the one time the daemon reads a
// mail. It touches no state, so that a batch of mails can be read in
// parallel (HandleBatch).
func (s *Service) read(m mailer.Message) *readInbound {
	in := intake.Read(s.intakeConfig(), m)
	return &readInbound{Mail: in, t: &work{Service: s, msg: in.Message, from: in.From, key: in.Key}}
}

// intakeConfig is what intake needs of the service's configuration.
func (s *Service) intakeConfig() intake.Config {
	return intake.Config{
		Address: s.cfg.Address, Separator: s.cfg.Separator, Mailbox: s.cfg.Mailbox,
		MaxMessageBytes: s.cfg.MaxMessageBytes, OwnMarkers: s.markers, TrustAuthServID: s.cfg.TrustAuthServID,
		NormalizeAddress: store.NormalizeAddress, SentAs: store.SentAs,
	}
}

// gameOf is the game a read mail is about, found before its transaction
// and without writing, the way route finds it: the game of the seat
// whose address it came to, from that seat's player. 0 for any other
// mail (the lobby, an admin's, a stranger's, one not acted on), which
// runs under Store.Tx. Under the lock route finds the game again; if it
// is another by then (the seat's address changed meanwhile), the mail
// runs again under Store.Tx (store.ErrWiderLock).
//
// On SQLite, where the one writer orders everything, GameTx is Tx, and
// the look-up is not made.
func (s *Service) gameOf(ctx context.Context, r *readInbound) int64 {
	if s.store.Engine() != store.PostgreSQL || !r.Verdict.Act() {
		return 0
	}
	token := r.Token
	if token == "" || (s.cfg.AdminToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.AdminToken)) == 1) {
		return 0
	}
	if c, ok := s.seats.get(token); ok {
		if c.address != r.t.from {
			return 0
		}
		return c.game
	}
	seat, err := s.store.SeatByToken(ctx, token)
	if err != nil {
		return 0 // the transaction finds the same, and refuses it
	}
	s.seats.put(token, seatOf{game: seat.GameID, address: seat.Address})
	if seat.Address != r.t.from {
		return 0
	}
	return seat.GameID
}

// seatCache keeps what gameOf found of seat tokens, so that a player's
// next mail costs no look-up before its transaction: the game a token
// belongs to never changes, and a seat's address rarely does (a
// replacement, which gives the seat a new token). An entry that is wrong
// by then costs nothing but the mail's escalation: route finds the truth
// under the lock. It holds at most seatCacheSize tokens, and starts
// afresh when full.
type seatCache struct {
	mu sync.Mutex
	m  map[string]seatOf
}

type seatOf struct {
	game    int64
	address string
}

const seatCacheSize = 4096

func (c *seatCache) get(token string) (seatOf, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[token]
	return v, ok
}

func (c *seatCache) put(token string, v seatOf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= seatCacheSize {
		c.m = make(map[string]seatOf)
	}
	c.m[token] = v
}

// handled logs a committed mail's outcome and wakes the outbox for its
// answers. Logged once committed: a transaction that fails must not log
// an outcome that never happened.
func (s *Service) handled(in *readInbound) {
	t := in.t
	if t.inboundID != 0 {
		s.log.Info("inbound", "from", t.from, "game", t.gameID, "outcome", string(t.outcome), "detail", t.detail, "uid", in.Received.UID)
		s.obs.Inbound(t.outcome)
	}
	t.committed()
}

// handleRead applies a read mail, w being its work bound to a transaction: it records the message, acts
// on its verdict, queues the answers and moves the IMAP cursor past it.
// What needs the database is done here, and nothing else: whether the
// mail was seen before (first, before anything is written), the refusal
// budget, the routing of a mail that is acted on, and the loop breaker.
func (w *work) handleRead(r *readInbound) error {
	m, msg, mailbox := r.Received, r.Message, r.Mailbox
	in := store.Inbound{
		MessageID: msg.MessageID, Mailbox: mailbox, UIDValidity: m.UIDValidity, UID: m.UID,
		From: w.from, Outcome: string(OutcomeHandling), ReceivedAt: w.now(),
		SentAs: r.SentAs, Digest: r.Digest,
	}
	seen, err2 := w.tx.InboundSeen(w.ctx, in)
	if err2 != nil {
		return err2
	}
	if seen {
		w.log.Info("inbound seen before", "message_id", msg.MessageID, "uid", m.UID)
		if m.UID > 0 {
			return w.tx.SetCursor(w.ctx, mailbox, m.UIDValidity, m.UID)
		}
		return nil
	}
	// Record the message first, so that the moves its commands make
	// can name it; its outcome is set once it is handled.
	w.inboundID, err2 = w.tx.RecordInbound(w.ctx, in)
	if errors.Is(err2, store.ErrDuplicate) {
		return fmt.Errorf("daemon: inbound %q recorded twice: %w", msg.MessageID, err2)
	}
	if err2 != nil {
		return err2
	}
	if err := w.actOnVerdict(r.Verdict); err != nil {
		return err
	}
	if w.outcome == "" {
		w.outcome = OutcomeAnswered
	}
	// Every mail read is read whole and acted on: the loop breaker only
	// holds answers back.
	if err := w.loopBreaker(); err != nil {
		return err
	}
	if err := w.enqueue(); err != nil {
		return err
	}
	if w.out.Dropped() > 0 {
		w.detail = strings.TrimSpace(w.detail + fmt.Sprintf(" (%d mail(s) not sent: over the address's limits)", w.out.Dropped()))
	}
	if w.out.Held() > 0 {
		w.detail = strings.TrimSpace(w.detail + fmt.Sprintf(" (%d answer(s) held by the loop breaker)", w.out.Held()))
	}
	in.Token, in.GameID, in.Outcome, in.Detail = w.token, w.gameID, string(w.outcome), w.detail
	if err := w.tx.SetInboundOutcome(w.ctx, w.inboundID, in); err != nil {
		return err
	}
	if m.UID > 0 {
		return w.tx.SetCursor(w.ctx, mailbox, m.UIDValidity, m.UID)
	}
	return nil
}

// actOnVerdict does what verdict v says of t's mail: acts on its commands,
// refuses it with an answer (within the sender's refusal budget), or
// only records why not.
func (w *work) actOnVerdict(v intake.Verdict) error {
	switch {
	case v.Act():
		return w.process()
	case v.Refusal != nil:
		if err := w.refuse(noticeKind(v.Refusal.Kind), v.Refusal.Text); err != nil {
			return err
		}
		if v.Detail != "" {
			// The record keeps the verdict's own reason (the server's
			// words, not told to the sender) and whether he was told.
			w.detail = v.Detail + strings.TrimPrefix(w.detail, v.Refusal.Text)
		}
	default:
		w.outcome, w.detail = v.Outcome, v.Detail
	}
	return nil
}

// refuse answers t's sender once per window with why nothing was done.
func (w *work) refuse(kind templates.NoticeKind, reason string) error {
	w.outcome, w.detail = OutcomeRefused, reason
	ok, err := w.tx.AllowRefusal(w.ctx, w.post.MailboxOf(w.from), w.now(), w.cfg.RefusalWindow, w.cfg.RefusalMax)
	if err != nil {
		return err
	}
	if !ok {
		w.detail += " (not answered: too many refusals to this address)"
		return nil
	}
	return w.notice(w.from, "", templates.Notice{Kind: kind, Reason: reason})
}
