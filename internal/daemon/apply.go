package daemon

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// apply applies a read mail, w being its work bound to a transaction: it
// records the message, acts on its verdict, queues the answers and moves
// the IMAP cursor past it. A panic in it is its error (tries.Catch), so
// that it undoes the mail's savepoint alone.
// What needs the database is done here, and nothing else: whether the
// mail was seen before (first, before anything is written), the refusal
// budget, the routing of a mail that is acted on, and the loop breaker.
func (w *work) apply(r *readInbound) (err error) {
	defer tries.Catch(&err)
	if r.failed != nil {
		return r.failed // not read at all: nothing to record yet
	}
	m, msg, mailbox := r.Received, r.Message, r.Mailbox
	in := store.Inbound{
		MessageID: msg.MessageID, Mailbox: mailbox, UIDValidity: m.UIDValidity, UID: m.UID,
		From: w.from, Outcome: string(OutcomeHandling), ReceivedAt: w.now(),
		SentAs: r.SentAs, Digest: r.Digest, SenderMailbox: w.post.MailboxOf(w.from),
	}
	// Recorded first, so that the moves its commands make can name it;
	// its outcome is settled once it is handled. The game the mail is
	// about, as the service's seat cache knows it, is read with it
	// (keptGame), and the mail it answers, which a seat's mail is
	// checked against (staleReply).
	keep := store.Keeping{Game: w.keptGame(r)}
	if keep.Game != 0 {
		keep.Reply = msg.InReplyTo
	}
	// A mail acted on at a seat it came from is recorded as applied at
	// that seat, what its handling most often ends in, so that Settle,
	// finding the record already says so, writes nothing (store's
	// Settle). Whatever it ends in, Settle records, in the same commit:
	// the guess is never what a committed record says unless true.
	if c, ok := w.knownSeat(r); ok {
		in.Token, in.GameID, in.Outcome = r.Token, c.game, string(OutcomeApplied)
	}
	id, seen, err := w.tx.ReceiveKeeping(w.ctx, in, keep)
	if err != nil || seen {
		if seen {
			w.log.Info("inbound seen before", "message_id", msg.MessageID, "uid", m.UID)
		}
		return err
	}
	w.inboundID = id
	if r.Verdict.IsBounce() {
		err = w.bounce(r.Mail)
	} else {
		err = w.actOnVerdict(r.Verdict)
	}
	if err != nil {
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
	return w.tx.Settle(w.ctx, w.inboundID, in)
}

// keptGame is the game of the seat the mail came to, as the service's
// seat cache knows it, on PostgreSQL: the mail's record reads its row,
// seats and players in its round trip (store's ReceiveKeeping), which
// the mail's route then reads from: the seat by its token, the game's
// row and its seats were each a round trip of their own in a
// transaction of several games' mail (issue 40), then one after the
// record. A game's own transaction has read them as it locked the game,
// and nothing more is read then; on SQLite nothing is either. 0 for
// none.
func (w *work) keptGame(r *readInbound) int64 {
	if w.store.Engine() != store.PostgreSQL {
		return 0
	}
	c, _ := w.knownSeat(r)
	return c.game
}

// knownSeat is the seat the service's seat cache knows r's token by, when
// r is acted on and came from the seat's address: the seat its route will
// most likely find.
func (w *work) knownSeat(r *readInbound) (seatOf, bool) {
	if !r.Verdict.Act() || r.Token == "" {
		return seatOf{}, false
	}
	c, ok := w.seats.get(r.Token)
	if !ok || c.address != w.from {
		return seatOf{}, false
	}
	return c, true
}

// actOnVerdict does what verdict v says of t's mail: acts on its commands,
// refuses it with an answer (within the sender's refusal budget), or
// only records why not.
func (w *work) actOnVerdict(v intake.Verdict) error {
	switch {
	case v.Act():
		if err := w.reachable(); err != nil {
			return err
		}
		return w.process()
	case v.Refusal != nil:
		// The sender reads it in his language, if pbem knows him (the
		// mail itself is not trusted to tell it); the record keeps
		// English.
		told := v.Refusal.Text
		if v.Refusal.Says != nil {
			p, err := w.tx.Player(w.ctx, w.from)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			told = v.Refusal.Says(templates.For(p.Language))
		}
		if err := w.refuse(noticeKind(v.Refusal.Kind), told); err != nil {
			return err
		}
		w.detail = v.Refusal.Text + strings.TrimPrefix(w.detail, told)
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
