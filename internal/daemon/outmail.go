package daemon

import (
	"fmt"

	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// outMail is one mail to queue when the transaction commits.
type outMail struct {
	// id is the Message-ID the mail was rendered for ("" when its
	// rendering needed none): a game mail's links name it. enqueue
	// derives every id the same way and refuses a mail whose id moved.
	id     string
	to     string
	token  string // the seat's token for Reply-To; "" means the bare address
	gameID int64
	seat   int // the seat the mail is threaded under; -1 for none
	mail   templates.Mail
	admin  bool // to a configured admin: not budgeted
	digest bool // a player's daily digest of his games: a game mail, not budgeted
	// invitation marks an invitation to a game (NoticeInvite): the one
	// mail a mailbox that never answered gets of that game.
	invitation bool
	held       bool // an answer the loop breaker holds: not written (loopBreaker)
	// gameMail marks a seat's game mail (renderGameMail), and
	// seenBefore is the seat's LastMailedEvent before it: what the seat
	// was mailed is set back to it if the mail is held.
	gameMail   bool
	seenBefore int64
}

// adminNotice mails lines to an admin address.
func (w *work) adminNotice(to, reason string, lines ...string) error {
	m, err := w.render.Notice(templates.Notice{Service: w.cfg.Name, Marker: parser.ReplyMarker, Kind: templates.NoticeAdmin, To: to, Reason: reason, Lines: lines})
	if err != nil {
		return fmt.Errorf("daemon: render admin notice: %w", err)
	}
	w.mails = append(w.mails, outMail{to: to, seat: -1, mail: m, admin: true})
	return nil
}

// notice renders a notice that belongs to no seat's thread: to the bare
// address (token ""), or to an address that is no seat's.
func (w *work) notice(to, token string, n templates.Notice) error {
	m, err := w.renderNotice(to, n)
	if err != nil {
		return err
	}
	w.mails = append(w.mails, outMail{to: to, token: token, gameID: w.gameID, seat: -1, mail: m})
	return nil
}

// seatNotice renders a notice to a seat's player in the seat's game
// thread: the game's Subject, the notice's own subject as its headline.
// A notice about no game in particular (an error, help, the list of
// games) answered there names the thread's game.
func (w *work) seatNotice(st store.Seat, n templates.Notice) error {
	th, err := w.thread(st.GameID)
	if err != nil {
		return err
	}
	n.ThreadSubject, n.ThreadRef = th.subject, th.ref
	// As for a game mail: the id enqueue will derive (the next of the
	// turn's mails), so that the notice's links (join, decline) name it.
	id := w.messageID(w.key, len(w.mails))
	n.ReplyAddress, n.MessageID, n.RefLine = w.seatAddress(st.Token), id, parser.RefLine(refOf(id))
	if n.GameID == 0 && n.Game == "" {
		n.GameID, n.Game, n.Title = st.GameID, th.game, th.title
	}
	m, err := w.renderNotice(st.Address, n)
	if err != nil {
		return err
	}
	w.mails = append(w.mails, outMail{to: st.Address, token: st.Token, gameID: st.GameID, seat: st.Seat, mail: m,
		invitation: n.Kind == templates.NoticeInvite})
	return nil
}

// answer renders a notice answering the sender: in his seat's thread when
// his mail came to it (seat is not nil), else from the bare address.
func (w *work) answer(seat *store.Seat, n templates.Notice) error {
	if seat != nil {
		return w.seatNotice(*seat, n)
	}
	return w.notice(w.from, "", n)
}

// renderNotice renders a notice to an address.
func (w *work) renderNotice(to string, n templates.Notice) (templates.Mail, error) {
	n.Service = w.cfg.Name
	n.Marker = parser.ReplyMarker
	if n.To == "" {
		n.To = to
	}
	n.Lines = append(w.firstAnswerNote(to), n.Lines...)
	m, err := w.render.Notice(n)
	if err != nil {
		return templates.Mail{}, fmt.Errorf("daemon: render %s notice: %w", n.Kind, err)
	}
	return m, nil
}

// enqueue composes every mail of the turn and puts it in the outbox, in
// the same transaction as everything else. Ids are derived from what
// caused the mail, so that the same work done again after a crash yields
// the same mails.
func (w *work) enqueue() error {
	for i, om := range w.mails {
		if intake.IsBotAddress(om.to) {
			// A bot seat reads no mail, and its address reaches no
			// one: whatever path made this mail, it is not written.
			continue
		}
		if om.held {
			// Held by the loop breaker, which told the sender once and
			// counted it on the inbound record (turn.held). It keeps
			// its place in t.mails: ids are derived from places.
			continue
		}
		ok, err := w.allowOut(om)
		if err != nil {
			return err
		}
		if !ok {
			// Over the address's budget: the mail is not written at
			// all. The record says so.
			w.dropped++
			w.log.Info("mail not sent: over the address's budget", "to", om.to, "game", om.gameID)
			continue
		}
		id := w.messageID(w.key, i)
		if om.id != "" && om.id != id {
			// The mail's links would name another mail than itself;
			// never the case unless a change reorders t.mails.
			return fmt.Errorf("daemon: mail %d of the turn was rendered as %s and would go as %s", i, om.id, id)
		}
		env := mailer.Envelope{
			FromName: w.cfg.Name, From: w.cfg.Address, To: om.to,
			Subject: om.mail.Subject, MessageID: id, Date: w.now(),
		}
		if om.token != "" {
			env.ReplyTo = w.seatAddress(om.token)
		}
		out := store.Outgoing{MessageID: id, GameID: om.gameID, Seat: -1, To: om.to, NotBefore: w.now()}
		if om.seat >= 0 && om.gameID > 0 {
			if err := w.threadUnder(om, &env, &out); err != nil {
				return err
			}
		} else if w.msg.MessageID != "" {
			env.InReplyTo = w.msg.MessageID
			env.References = []string{w.msg.MessageID}
		}
		raw, err := mailer.Compose(env, om.mail.Text, om.mail.HTML)
		if err != nil {
			return err
		}
		out.Raw = raw
		if _, _, err := w.tx.Enqueue(w.ctx, out); err != nil {
			return err
		}
	}
	return nil
}

// threadUnder puts a mail in its seat's game thread: the game's Subject,
// In-Reply-To and References naming the thread's root (the game's first
// mail to the seat; the root itself names none), so that the thread is
// flat, and the seat's List-Unsubscribe. The outbox row remembers what
// the reader knew, for replies to it (staleReply).
func (w *work) threadUnder(om outMail, env *mailer.Envelope, out *store.Outgoing) error {
	st, err := w.tx.Seat(w.ctx, om.gameID, om.seat)
	if err != nil {
		return err
	}
	if !threadedTo(st, om.to) {
		// A bug, not a player's doing: another address's thread (its
		// token, its game's names) must not reach this one.
		return fmt.Errorf("daemon: a mail to %s threaded under seat %d of game %d, which another address plays", om.to, om.seat, om.gameID)
	}
	th, err := w.thread(om.gameID)
	if err != nil {
		return err
	}
	env.Subject = th.subject
	env.ReplyTo = w.seatAddress(st.Token)
	env.ListUnsubscribe = w.unsubscribeURI(st.Token)
	out.Seat, out.Decision, out.SeenEvent = om.seat, st.Decision, st.LastMailedEvent
	if st.ThreadRoot != "" {
		env.InReplyTo = st.ThreadRoot
		env.References = []string{st.ThreadRoot}
	}
	return w.tx.SetSeatMessageID(w.ctx, om.gameID, om.seat, env.MessageID)
}
