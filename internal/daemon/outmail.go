package daemon

import (
	"context"
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
func (s *Service) adminNotice(t *turn, to, reason string, lines ...string) error {
	m, err := s.render.Notice(templates.Notice{Service: s.cfg.Name, Marker: parser.ReplyMarker, Kind: templates.NoticeAdmin, To: to, Reason: reason, Lines: lines})
	if err != nil {
		return fmt.Errorf("daemon: render admin notice: %w", err)
	}
	t.mails = append(t.mails, outMail{to: to, seat: -1, mail: m, admin: true})
	return nil
}

// notice renders a notice that belongs to no seat's thread: to the bare
// address (token ""), or to an address that is no seat's.
func (s *Service) notice(t *turn, to, token string, n templates.Notice) error {
	m, err := s.renderNotice(t, to, n)
	if err != nil {
		return err
	}
	t.mails = append(t.mails, outMail{to: to, token: token, gameID: t.gameID, seat: -1, mail: m})
	return nil
}

// seatNotice renders a notice to a seat's player in the seat's game
// thread: the game's Subject, the notice's own subject as its headline.
// A notice about no game in particular (an error, help, the list of
// games) answered there names the thread's game.
func (s *Service) seatNotice(ctx context.Context, tx *store.Tx, t *turn, st store.Seat, n templates.Notice) error {
	th, err := s.thread(ctx, tx, st.GameID)
	if err != nil {
		return err
	}
	n.ThreadSubject, n.ThreadRef = th.subject, th.ref
	// As for a game mail: the id enqueue will derive (the next of the
	// turn's mails), so that the notice's links (join, decline) name it.
	id := s.messageID(t.key, len(t.mails))
	n.ReplyAddress, n.MessageID, n.RefLine = s.seatAddress(st.Token), id, parser.RefLine(refOf(id))
	if n.GameID == 0 && n.Game == "" {
		n.GameID, n.Game, n.Title = st.GameID, th.game, th.title
	}
	m, err := s.renderNotice(t, st.Address, n)
	if err != nil {
		return err
	}
	t.mails = append(t.mails, outMail{to: st.Address, token: st.Token, gameID: st.GameID, seat: st.Seat, mail: m,
		invitation: n.Kind == templates.NoticeInvite})
	return nil
}

// answer renders a notice answering the sender: in his seat's thread when
// his mail came to it (seat is not nil), else from the bare address.
func (s *Service) answer(ctx context.Context, tx *store.Tx, t *turn, seat *store.Seat, n templates.Notice) error {
	if seat != nil {
		return s.seatNotice(ctx, tx, t, *seat, n)
	}
	return s.notice(t, t.from, "", n)
}

// renderNotice renders a notice to an address.
func (s *Service) renderNotice(t *turn, to string, n templates.Notice) (templates.Mail, error) {
	n.Service = s.cfg.Name
	n.Marker = parser.ReplyMarker
	if n.To == "" {
		n.To = to
	}
	n.Lines = append(t.firstAnswerNote(to), n.Lines...)
	m, err := s.render.Notice(n)
	if err != nil {
		return templates.Mail{}, fmt.Errorf("daemon: render %s notice: %w", n.Kind, err)
	}
	return m, nil
}

// enqueue composes every mail of the turn and puts it in the outbox, in
// the same transaction as everything else. Ids are derived from what
// caused the mail, so that the same work done again after a crash yields
// the same mails.
func (s *Service) enqueue(ctx context.Context, tx *store.Tx, t *turn) error {
	for i, om := range t.mails {
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
		ok, err := s.allowOut(ctx, tx, t, om)
		if err != nil {
			return err
		}
		if !ok {
			// Over the address's budget: the mail is not written at
			// all. The record says so.
			t.dropped++
			s.log.Info("mail not sent: over the address's budget", "to", om.to, "game", om.gameID)
			continue
		}
		id := s.messageID(t.key, i)
		if om.id != "" && om.id != id {
			// The mail's links would name another mail than itself;
			// never the case unless a change reorders t.mails.
			return fmt.Errorf("daemon: mail %d of the turn was rendered as %s and would go as %s", i, om.id, id)
		}
		env := mailer.Envelope{
			FromName: s.cfg.Name, From: s.cfg.Address, To: om.to,
			Subject: om.mail.Subject, MessageID: id, Date: s.now(),
		}
		if om.token != "" {
			env.ReplyTo = s.seatAddress(om.token)
		}
		out := store.Outgoing{MessageID: id, GameID: om.gameID, Seat: -1, To: om.to, NotBefore: s.now()}
		if om.seat >= 0 && om.gameID > 0 {
			if err := s.threadUnder(ctx, tx, om, &env, &out); err != nil {
				return err
			}
		} else if t.msg.MessageID != "" {
			env.InReplyTo = t.msg.MessageID
			env.References = []string{t.msg.MessageID}
		}
		raw, err := mailer.Compose(env, om.mail.Text, om.mail.HTML)
		if err != nil {
			return err
		}
		out.Raw = raw
		if _, _, err := tx.Enqueue(ctx, out); err != nil {
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
func (s *Service) threadUnder(ctx context.Context, tx *store.Tx, om outMail, env *mailer.Envelope, out *store.Outgoing) error {
	st, err := tx.Seat(ctx, om.gameID, om.seat)
	if err != nil {
		return err
	}
	if !threadedTo(st, om.to) {
		// A bug, not a player's doing: another address's thread (its
		// token, its game's names) must not reach this one.
		return fmt.Errorf("daemon: a mail to %s threaded under seat %d of game %d, which another address plays", om.to, om.seat, om.gameID)
	}
	th, err := s.thread(ctx, tx, om.gameID)
	if err != nil {
		return err
	}
	env.Subject = th.subject
	env.ReplyTo = s.seatAddress(st.Token)
	env.ListUnsubscribe = s.unsubscribeURI(st.Token)
	out.Seat, out.Decision, out.SeenEvent = om.seat, st.Decision, st.LastMailedEvent
	if st.ThreadRoot != "" {
		env.InReplyTo = st.ThreadRoot
		env.References = []string{st.ThreadRoot}
	}
	return tx.SetSeatMessageID(ctx, om.gameID, om.seat, env.MessageID)
}
