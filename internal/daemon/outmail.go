package daemon

import (
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The unit of work's outgoing mail. Composing, threading, the limits,
// the loop breaker and the outbox are internal/outgoing's; the methods
// here bind them to the work: its transaction, what caused it (the key
// of its mails' ids), the sender it answers, its game so far and the
// note that its commands came from the Subject. They are what the
// handlers call, so that a handler says what to send (w.notice, w.answer,
// w.seatNotice) and never how the work is named.

// unit is w as internal/outgoing needs it.
func (w *work) unit() outgoing.Unit {
	return outgoing.Unit{
		Ctx: w.ctx, Tx: w.tx, Key: w.key, From: w.from, InReplyTo: w.msg.MessageID,
		GameID: w.gameID, FirstLines: w.firstAnswerNote, Out: &w.out,
	}
}

// adminNotice mails lines to an admin address.
func (w *work) adminNotice(to, reason string, lines ...string) error {
	return w.post.AdminNotice(w.unit(), to, reason, lines...)
}

// notice renders a notice that belongs to no seat's thread: to the bare
// address (token ""), or to an address that is no seat's.
func (w *work) notice(to, token string, n templates.Notice) error {
	return w.post.Notice(w.unit(), to, token, n)
}

// seatNotice renders a notice to a seat's player in the seat's game
// thread.
func (w *work) seatNotice(st store.Seat, n templates.Notice) error {
	return w.post.SeatNotice(w.unit(), st, n)
}

// answer renders a notice answering the sender: in his seat's thread when
// his mail came to it (seat is not nil), else from the bare address.
func (w *work) answer(seat *store.Seat, n templates.Notice) error {
	return w.post.Answer(w.unit(), seat, n)
}

// thread returns the thread of game id (outgoing.Post.Thread).
func (w *work) thread(id int64) (outgoing.GameThread, error) {
	return w.post.Thread(w.ctx, w.tx, id)
}

// enqueue composes every mail of the work and puts it in the outbox, in
// its transaction (outgoing.Post.Enqueue).
func (w *work) enqueue() error { return w.post.Enqueue(w.unit()) }

// loopBreaker counts a mail that was read, once it is handled and before
// its answers are queued, and holds the answers to its sender while the
// breaker of its thread is open (outgoing.Post.BreakLoop): a mail
// answered or applied was read; one applied to a seat's game went on
// with the game, and never counts.
func (w *work) loopBreaker() error {
	read := w.outcome == OutcomeAnswered || w.outcome == OutcomeApplied
	return w.post.BreakLoop(w.unit(), w.token, read, w.outcome == OutcomeApplied)
}

// answeredBy marks w's sender's mailbox as answered when its mail is one
// only the mailbox's owner could have sent: from a seat's own address to
// that seat's reply address (whose token was mailed to that address
// alone), or authenticated by the receiving server when
// trust_authentication_results is set. A forged From proves nothing: a
// mail to pbem's bare address, or a `new` that seats its From as a
// game's creator, does not mark it.
func (w *work) answeredBy(seat *store.Seat) error {
	if seat == nil && w.cfg.TrustAuthServID == "" {
		return nil
	}
	return w.post.MarkAnswered(w.ctx, w.tx, w.from)
}

// newPost makes the service's outgoing.Post from its configuration,
// renderer, games, logger and clock; a test that changes one of those
// after New calls it again.
func (s *Service) newPost() {
	s.post = outgoing.New(outgoingConfig(s.cfg), s.render, outgoing.Lookup(s.games), s.log, s.now)
}

// outgoingConfig is what internal/outgoing needs of c.
func outgoingConfig(c Config) outgoing.Config {
	return outgoing.Config{
		Name: c.Name, Address: c.Address, Separator: c.Separator, BotDomain: intake.BotDomain,
		Admins:        outgoing.Admins(c.Admins),
		AnswersPerDay: c.Limits.AnswersPerDay, LoopPerMinute: c.Limits.LoopPerMinute,
		RefusalWindow: c.RefusalWindow, RefusalMax: c.RefusalMax,
		Mailbox: c.Limits.Mailbox,
		WebURL:  c.WebURL,
	}
}

// Accepts says whether rcpt is one of pbem's addresses (outgoing.Post.Accepts):
// the LMTP server refuses others.
func (s *Service) Accepts(rcpt string) bool { return s.post.Accepts(rcpt) }
