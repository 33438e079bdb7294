package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// One-click unsubscribe (RFC 8058; internal/outgoing/unsubscribe.go):
// the web server hands a mail's /u/TOKEN here. A GET shows what the
// button does and changes nothing (UnsubscribeForm); the button, or a
// mail program's one-click POST, does what the mailto: beside it in the
// mail's List-Unsubscribe does, `notify off` from the seat's address
// (Unsubscribe), by the same code as that command. It sends no mail:
// the page is the answer, and one who asked for less mail is not sent
// one more.

// UnsubscribeForm is the page a GET of a one-click unsubscribe token
// shows: what its button would do. A token that is no seat's, as the
// seat is now, is webpage.ErrNoPage, which the web server answers as any
// unknown address.
func (s *Service) UnsubscribeForm(ctx context.Context, token string) (string, error) {
	if _, err := s.unsubscribeSeat(ctx, s.store, token); err != nil {
		return "", err
	}
	return templates.UnsubscribePage{}.Render()
}

// Unsubscribe turns the game mail off for the address of the seat a
// one-click unsubscribe token names, as `notify off` sent from it in the
// seat's thread does, and returns the page that says so. Doing it again
// changes nothing more. A token that is no seat's is webpage.ErrNoPage.
func (s *Service) Unsubscribe(ctx context.Context, token string) (string, error) {
	var st store.Seat
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		var err error
		if st, err = s.unsubscribeSeat(ctx, tx, token); err != nil {
			return err
		}
		w := s.workIn(ctx, tx)
		w.from = store.NormalizeAddress(st.Address)
		_, err = w.setting(unsubscribeCommand)
		return err
	})
	if err != nil {
		return "", err
	}
	// The host may wonder why a player hears nothing: the log says,
	// without the token.
	s.log.Info("one-click unsubscribe: notify off for the seat's address", "game", st.GameID, "seat", st.Seat)
	return templates.UnsubscribePage{Done: true}.Render()
}

// unsubscribeCommand is what a one-click unsubscribe does: the command
// the mailto: beside it sends (outgoing's unsubscribeCommand).
var unsubscribeCommand = parser.Command{Kind: parser.KindNotify, Name: parser.KindNotify.String(), Args: []string{string(store.NotifyOff)}}

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
