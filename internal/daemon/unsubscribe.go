package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// One-click unsubscribe (RFC 8058; internal/outgoing/unsubscribe.go):
// the web server hands a mail's /u/TOKEN here. A GET shows what the
// button does and changes nothing (UnsubscribeForm); the button, or a
// mail program's one-click POST, does what the mailto: beside it in the
// mail's List-Unsubscribe does (outgoing's UnsubscribeCommand), by the
// same code as that command, for the seat the token names:
//   - while the seat is an invitation not yet answered, `never`: the
//     invitation is declined (the table is told, as for a decline) and
//     pbem invites the address's mailbox to no game again; once declined,
//     the same, which then only stops the invitations;
//   - once its player has joined, `notify off here`: that game's mail
//     to him is off (notifyFor); his other games keep his setting.
// It sends the unsubscriber no mail: the page is the answer, and one who
// asked for less mail is not sent one more.

// unsubscribeAct is what a one-click unsubscribe does for a seat.
type unsubscribeAct int

const (
	unsubscribeGameMail    unsubscribeAct = iota // notify off here
	unsubscribeInvitations                       // never
)

// unsubscribeActOf is what a one-click unsubscribe does for st as it is
// now: what its mails' mailto: asks (outgoing.UnsubscribeCommand).
func unsubscribeActOf(st store.Seat) unsubscribeAct {
	if outgoing.Invitation(st) {
		return unsubscribeInvitations
	}
	return unsubscribeGameMail
}

// UnsubscribeForm is the page a GET of a one-click unsubscribe token
// shows: what its button would do. A token that is no seat's, as the
// seat is now, is webpage.ErrNoPage, which the web server answers as any
// unknown address.
func (s *Service) UnsubscribeForm(ctx context.Context, token string) (string, error) {
	st, err := s.unsubscribeSeat(ctx, s.store, token)
	if err != nil {
		return "", err
	}
	return templates.UnsubscribePage{Invitation: unsubscribeActOf(st) == unsubscribeInvitations, Language: s.languageOf(ctx, st.Address)}.Render()
}

// Unsubscribe does what a one-click unsubscribe token's seat's mails'
// mailto: asks (see above), and returns the page that says so. Doing it
// again changes nothing more. A token that is no seat's is
// webpage.ErrNoPage.
func (s *Service) Unsubscribe(ctx context.Context, token string) (string, error) {
	gameID, _, ok := outgoing.ParseUnsubscribeToken(token)
	if !ok {
		return "", webpage.ErrNoPage
	}
	var st store.Seat
	var act unsubscribeAct
	var w *work
	err := s.store.GameTx(ctx, gameID, func(tx *store.Tx) error {
		var err error
		if st, err = s.unsubscribeSeat(ctx, tx, token); err != nil {
			return err
		}
		w = s.workIn(ctx, tx)
		w.from = store.NormalizeAddress(st.Address)
		if p, err := tx.Player(ctx, w.from); err == nil {
			w.words = templates.For(p.Language)
		}
		w.key = fmt.Sprintf("unsubscribe:%d:%d", st.GameID, st.Seat)
		act = unsubscribeActOf(st)
		if act == unsubscribeInvitations {
			err = w.unsubscribeInvited(st)
		} else {
			_, err = w.setGameNotify(&st, store.NotifyOff)
		}
		if err != nil {
			return err
		}
		return w.enqueue()
	})
	if err != nil {
		return "", err
	}
	if w.out.Len() > 0 {
		s.wakeOutbox()
	}
	// The host may wonder why a player hears nothing: the log says,
	// without the token.
	if act == unsubscribeInvitations {
		s.log.Info("one-click unsubscribe: never, for the seat's invitation", "game", st.GameID, "seat", st.Seat)
	} else {
		s.log.Info("one-click unsubscribe: notify off for the seat's game", "game", st.GameID, "seat", st.Seat)
	}
	return templates.UnsubscribePage{Invitation: act == unsubscribeInvitations, Done: true, Language: s.languageOf(ctx, st.Address)}.Render()
}

// unsubscribeInvited is `never` for seat st, an invitation not yet
// answered, as the one-click POST does it: no invitation to its
// mailbox again, and the invitation declined if its game still invites,
// which tells the rest of the table (seatWork.never, which also answers
// the sender; here the page does).
func (w *work) unsubscribeInvited(st store.Seat) error {
	if err := w.tx.SetNoInvitations(w.ctx, w.post.MailboxOf(st.Address), true); err != nil {
		return err
	}
	lg, err := w.loadGame(st.GameID)
	if err != nil {
		return err
	}
	if lg.Row.Status != store.StatusInviting {
		return nil
	}
	return w.declineInvitation(lg, st, func(o store.Seat) bool { return o.Seat != st.Seat })
}

// seatReader reads a seat, in a transaction or outside one.
type seatReader interface {
	Seat(ctx context.Context, gameID int64, seat int) (store.Seat, error)
}

// unsubscribeSeat is the seat a one-click unsubscribe token names, if the
// token is that seat's as it is now (outgoing.CheckUnsubscribeToken); a
// bot's seat has none. Anything else is webpage.ErrNoPage, which says
// nothing of why.
func (s *Service) unsubscribeSeat(ctx context.Context, r seatReader, token string) (store.Seat, error) {
	gameID, seat, ok := outgoing.ParseUnsubscribeToken(token)
	if !ok {
		return store.Seat{}, webpage.ErrNoPage
	}
	st, err := r.Seat(ctx, gameID, seat)
	if errors.Is(err, store.ErrNotFound) {
		return store.Seat{}, webpage.ErrNoPage
	}
	if err != nil {
		// The token is a secret: the error names the seat, not it.
		return store.Seat{}, fmt.Errorf("daemon: one-click unsubscribe of seat %d of game %d: %w", seat, gameID, err)
	}
	if st.Bot != "" || !outgoing.CheckUnsubscribeToken(token, st) {
		return store.Seat{}, webpage.ErrNoPage
	}
	return st, nil
}
