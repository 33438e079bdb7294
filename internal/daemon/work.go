package daemon

import (
	"context"

	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/outgoing"
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
	// say is pbem's words in the sender's language: what answers him
	// (language.go). English for work no mail caused.
	words templates.Words
	// languageNote is set when this mail made pbem write to the sender
	// in German for the first time: his first mail to it says how to
	// switch back (firstAnswerNote).
	languageNote bool
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

// firstAnswerNote returns the lines to put first in a mail to addr: the
// Subject note, once, in the first answer to the sender.
func (w *work) firstAnswerNote(addr string) []string {
	if addr != w.from {
		return nil
	}
	var lines []string
	if w.languageNote {
		w.languageNote = false
		lines = append(lines, w.words.LanguageChosenForYou())
	}
	if w.fromSubject {
		w.fromSubject = false
		lines = append(lines, w.words.CommandFromSubject())
	}
	return lines
}
