package outgoing

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// AdminNotice mails lines to an admin address.
func (p *Post) AdminNotice(u Unit, to, reason string, lines ...string) error {
	m, err := p.render.Notice(templates.Notice{Service: p.cfg.Name, Marker: parser.ReplyMarker, Kind: templates.NoticeAdmin, To: to, Reason: reason, Lines: lines})
	if err != nil {
		return fmt.Errorf("outgoing: render admin notice: %w", err)
	}
	u.Out.Add(Mail{To: to, Seat: -1, Mail: m, Admin: true})
	return nil
}

// Notice renders a notice that belongs to no seat's thread: to the bare
// address (token ""), or to an address that is no seat's.
func (p *Post) Notice(u Unit, to, token string, n templates.Notice) error {
	m, err := p.renderNotice(u, to, n)
	if err != nil {
		return err
	}
	u.Out.Add(Mail{To: to, Token: token, GameID: u.GameID, Seat: -1, Mail: m})
	return nil
}

// SeatNotice renders a notice to a seat's player in the seat's game
// thread: the game's Subject, the notice's own subject as its headline.
// A notice about no game in particular (an error, help, the list of
// games) answered there names the thread's game.
func (p *Post) SeatNotice(u Unit, st store.Seat, n templates.Notice) error {
	th, err := p.Thread(u.Ctx, u.Tx, st.GameID)
	if err != nil {
		return err
	}
	n.ThreadSubject, n.ThreadRef = th.Subject, th.Ref
	// As for a game mail: the id Enqueue will derive (the next of the
	// unit's mails), so that the notice's links (join, decline) name it.
	id := p.NextID(u)
	n.ReplyAddress, n.MessageID, n.RefLine = p.SeatAddress(st.Token), id, parser.RefLine(RefOf(id))
	if n.GameID == 0 && n.Game == "" {
		n.GameID, n.Game, n.Title = st.GameID, th.Game, th.Title
	}
	m, err := p.renderNotice(u, st.Address, n)
	if err != nil {
		return err
	}
	u.Out.Add(Mail{To: st.Address, Token: st.Token, GameID: st.GameID, Seat: st.Seat, Mail: m,
		Invitation: n.Kind == templates.NoticeInvite})
	return nil
}

// Answer renders a notice answering the sender: in his seat's thread when
// his mail came to it (seat is not nil), else from the bare address.
func (p *Post) Answer(u Unit, seat *store.Seat, n templates.Notice) error {
	if seat != nil {
		return p.SeatNotice(u, *seat, n)
	}
	return p.Notice(u, u.From, "", n)
}

// wordsOf is pbem's words for the player at addr: his language's, or
// English when pbem has not met him.
func wordsOf(u Unit, addr string) (templates.Words, error) {
	pl, err := u.Tx.Player(u.Ctx, addr)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return templates.Say, fmt.Errorf("outgoing: the language of %s: %w", addr, err)
	}
	return templates.For(pl.Language), nil
}

// renderNotice renders a notice to an address, in its reader's language
// when the notice names none: the daemon wrote its lines in it.
func (p *Post) renderNotice(u Unit, to string, n templates.Notice) (templates.Mail, error) {
	if n.Language == "" {
		pl, err := u.Tx.Player(u.Ctx, to)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return templates.Mail{}, fmt.Errorf("outgoing: the language of %s: %w", to, err)
		}
		n.Language = pl.Language
	}
	n.Service = p.cfg.Name
	n.Marker = parser.ReplyMarker
	if n.To == "" {
		n.To = to
	}
	n.Lines = append(u.firstLines(to), n.Lines...)
	m, err := p.render.Notice(n)
	if err != nil {
		return templates.Mail{}, fmt.Errorf("outgoing: render %s notice: %w", n.Kind, err)
	}
	return m, nil
}

// TellAdmins mails every configured admin, in plain words (templates may
// be what fails). Admin mail is not limited.
func (p *Post) TellAdmins(u Unit, subject string, lines ...string) {
	for _, admin := range p.cfg.Admins {
		u.Out.Add(Mail{To: admin, Seat: -1, Admin: true, Mail: templates.Mail{
			Subject: templates.Say.AdminSubject(p.cfg.Name, subject),
			Text:    strings.Join(lines, "\n") + "\n",
		}})
	}
}

// TellFailed tells the sender of a mail set aside (msg) that nothing in
// it was applied, within the refusal limit, in words that need no
// template.
func (p *Post) TellFailed(u Unit, msg parser.Message) error {
	if u.From == "" || parser.Automatic(msg) != "" || parser.CheckAddress(u.From) != nil {
		return nil
	}
	ok, err := u.Tx.AllowRefusal(u.Ctx, p.MailboxOf(u.From), p.now(), p.cfg.RefusalWindow, p.cfg.RefusalMax)
	if err != nil || !ok {
		return err
	}
	u.Out.Add(Mail{To: u.From, Seat: -1, Mail: templates.Mail{
		Subject: templates.Say.InternalErrorSubject(),
		Text:    templates.Say.InternalErrorText(),
	}})
	return nil
}

// Admins splits the configuration's comma-separated admin addresses into
// Config.Admins: normalised, without empty ones.
func Admins(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = store.NormalizeAddress(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
