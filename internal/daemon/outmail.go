package daemon

import (
	"context"
	"fmt"

	"github.com/pbem/pbem/internal/mailer"
	"github.com/pbem/pbem/internal/parser"
	"github.com/pbem/pbem/internal/store"
	"github.com/pbem/pbem/internal/templates"
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

// notice renders a notice to an address that is no seat (or whose seat
// does not thread it).
func (s *Service) notice(t *turn, to, token string, n templates.Notice) error {
	return s.seatNotice(t, t.gameID, -1, to, token, n)
}

// seatNotice renders a notice, threaded under a seat of a game when seat
// is not -1.
func (s *Service) seatNotice(t *turn, gameID int64, seat int, to, token string, n templates.Notice) error {
	n.Service = s.cfg.Name
	n.Marker = parser.ReplyMarker
	if n.To == "" {
		n.To = to
	}
	n.Lines = append(t.firstAnswerNote(to), n.Lines...)
	m, err := s.render.Notice(n)
	if err != nil {
		return fmt.Errorf("daemon: render %s notice: %w", n.Kind, err)
	}
	t.mails = append(t.mails, outMail{to: to, token: token, gameID: gameID, seat: seat, mail: m})
	return nil
}

// enqueue composes every mail of the turn and puts it in the outbox, in
// the same transaction as everything else. Ids are derived from what
// caused the mail, so that the same work done again after a crash yields
// the same mails.
func (s *Service) enqueue(ctx context.Context, tx *store.Tx, t *turn) error {
	for i, om := range t.mails {
		ok, err := s.allowOut(ctx, tx, t, om)
		if err != nil {
			return err
		}
		if !ok {
			// Over the address's budget, or the loop breaker is open:
			// the mail is not written at all. The record says so.
			t.dropped++
			s.log.Info("mail not sent: over the address's budget or the loop breaker", "to", om.to, "game", om.gameID)
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
			st, err := tx.Seat(ctx, om.gameID, om.seat)
			if err != nil {
				return err
			}
			// What the reader knows when he reads this mail: a reply to
			// it is checked against it (staleReply).
			out.Seat, out.Decision, out.SeenEvent = om.seat, st.Decision, st.LastMailedEvent
			if st.LastMessageID != "" {
				env.InReplyTo = st.LastMessageID
				env.References = []string{st.ThreadRoot}
				if st.ThreadRoot != st.LastMessageID {
					env.References = append(env.References, st.LastMessageID)
				}
			}
			if err := tx.SetSeatMessageID(ctx, om.gameID, om.seat, id); err != nil {
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
