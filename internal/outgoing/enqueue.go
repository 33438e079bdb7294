package outgoing

import (
	"fmt"
	"strings"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// Enqueue composes every mail of the unit and puts it in the outbox, in
// the same transaction as everything else. Ids are derived from what
// caused the mail, so that the same work done again after a crash yields
// the same mails.
func (p *Post) Enqueue(u Unit) error {
	for i, om := range u.Out.list {
		if p.toBot(om.To) {
			// A bot seat reads no mail, and its address reaches no
			// one: whatever path made this mail, it is not written.
			continue
		}
		if om.held {
			// Held by the loop breaker, which told the sender once and
			// counted it (Mails.Held). It keeps its place among the
			// unit's mails: ids are derived from places.
			continue
		}
		ok, err := p.withinLimit(u, om)
		if err != nil {
			return err
		}
		if !ok {
			// Over the mailbox's limit: the mail is not written at
			// all. The record says so.
			u.Out.dropped++
			p.log.Info("mail not sent: over the address's limit", "to", om.To, "game", om.GameID)
			continue
		}
		if err := p.enqueueOne(u, i, om); err != nil {
			return err
		}
	}
	return nil
}

// toBot reports whether addr is a bot seat's (Config.BotDomain).
func (p *Post) toBot(addr string) bool {
	_, domain, ok := strings.Cut(addr, "@")
	return ok && p.cfg.BotDomain != "" && strings.EqualFold(domain, p.cfg.BotDomain)
}

// enqueueOne composes the mail at place i of the unit's and puts it in
// the outbox.
func (p *Post) enqueueOne(u Unit, i int, om Mail) error {
	id := p.MessageID(u.Key, i)
	if om.ID != "" && om.ID != id {
		// The mail's links would name another mail than itself;
		// never the case unless a change reorders the unit's mails.
		return fmt.Errorf("outgoing: mail %d of the unit was rendered as %s and would go as %s", i, om.ID, id)
	}
	now := p.now()
	env := mailer.Envelope{
		FromName: p.cfg.Name, From: p.cfg.Address, To: om.To,
		Subject: om.Mail.Subject, MessageID: id, Date: now,
	}
	if om.Token != "" {
		env.ReplyTo = p.SeatAddress(om.Token)
	}
	out := store.Outgoing{MessageID: id, GameID: om.GameID, Seat: -1, To: om.To, NotBefore: now}
	if om.Seat >= 0 && om.GameID > 0 {
		if err := p.threadUnder(u, om, &env, &out); err != nil {
			return err
		}
	} else if u.InReplyTo != "" {
		env.InReplyTo = u.InReplyTo
		env.References = []string{u.InReplyTo}
	}
	raw, err := mailer.Compose(env, om.Mail.Text, om.Mail.HTML)
	if err != nil {
		return err
	}
	out.Raw = raw
	return u.Tx.Post(u.Ctx, out)
}

// threadUnder puts a mail in its seat's game thread: the game's Subject,
// In-Reply-To and References naming the thread's root (the game's first
// mail to the seat; the root itself names none), so that the thread is
// flat, and the seat's List-Unsubscribe (with its one-click address
// when pbem serves web pages). The outbox row remembers what
// the reader knew, for replies to it (the daemon's staleReply).
func (p *Post) threadUnder(u Unit, om Mail, env *mailer.Envelope, out *store.Outgoing) error {
	st, err := u.Tx.Seat(u.Ctx, om.GameID, om.Seat)
	if err != nil {
		return err
	}
	if !threadedTo(st, om.To) {
		// A bug, not a player's doing: another address's thread (its
		// token, its game's names) must not reach this one.
		return fmt.Errorf("outgoing: a mail to %s threaded under seat %d of game %d, which another address plays", om.To, om.Seat, om.GameID)
	}
	th, err := p.Thread(u.Ctx, u.Tx, om.GameID)
	if err != nil {
		return err
	}
	env.Subject = th.Subject
	env.ReplyTo = p.SeatAddress(st.Token)
	env.ListUnsubscribe = p.unsubscribeURI(st)
	env.OneClickUnsubscribe = p.unsubscribeURL(st)
	out.Seat, out.Decision, out.SeenEvent = om.Seat, st.Decision, st.LastMailedEvent
	if st.ThreadRoot != "" {
		env.InReplyTo = st.ThreadRoot
		env.References = []string{st.ThreadRoot}
	}
	return u.Tx.SetSeatMessageID(u.Ctx, om.GameID, om.Seat, env.MessageID)
}
