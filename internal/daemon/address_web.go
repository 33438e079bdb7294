package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The one-tap confirmation of a change of address (issue 37, part 3):
// when pbem serves pages, the confirmation mailed to the new address
// carries, beside its reply address, a link WEBURL/a/TOKEN whose TOKEN
// is the change's own (without addressTokenPrefix): a secret that only
// the new address was sent, as the reply address is. The web server
// (internal/web, /a/) hands it here. A GET shows the two addresses and a
// button, and changes nothing (AddressConfirmForm), so that a link
// scanner confirms nothing; the button POSTs (ConfirmAddressByLink),
// which does what a reply from the new address does, by the same code
// (confirmChange): the link itself proves that the new address received
// the confirmation, as a reply's sender does. Once done, or refused, the
// change is gone, and its link leads to no page, as any unknown one.

// addressButton is the confirmation's link to its page, for the mail
// confirming the change whose token is token; none when pbem serves no
// pages.
func (w *work) addressButton(token string) templates.WebButton {
	if w.cfg.WebURL == "" {
		return templates.WebButton{}
	}
	return templates.WebButton{
		URL:   strings.TrimRight(w.cfg.WebURL, "/") + "/a/" + strings.TrimPrefix(token, addressTokenPrefix),
		Label: w.words.AddressConfirmButton(),
	}
}

// addressChangeReader reads an address change, in a transaction or
// outside one.
type addressChangeReader interface {
	AddressChangeByToken(ctx context.Context, token string) (store.AddressChange, error)
}

// linkedChange is the change whose page's token (the part of the
// change's token after addressTokenPrefix) is token, or
// webpage.ErrNoPage, which says nothing of why.
func linkedChange(ctx context.Context, r addressChangeReader, token string) (store.AddressChange, error) {
	if token == "" || strings.HasPrefix(token, addressTokenPrefix) {
		return store.AddressChange{}, webpage.ErrNoPage
	}
	c, err := r.AddressChangeByToken(ctx, addressTokenPrefix+token)
	if errors.Is(err, store.ErrNotFound) {
		return store.AddressChange{}, webpage.ErrNoPage
	}
	if err != nil {
		// The token is a secret: the error does not name it.
		return store.AddressChange{}, fmt.Errorf("daemon: address change by its link: %w", err)
	}
	return c, nil
}

// AddressConfirmForm is the page a GET of an address confirmation's link
// shows: the two addresses and the button that confirms, or, past the
// day it could be confirmed in, that it can no longer be. It changes
// nothing. A token that is no change's is webpage.ErrNoPage, which the
// web server answers as any unknown address.
func (s *Service) AddressConfirmForm(ctx context.Context, token string) (string, error) {
	c, err := linkedChange(ctx, s.store, token)
	if err != nil {
		return "", err
	}
	lang := s.languageOf(ctx, c.Address)
	say := templates.For(lang)
	page := templates.AddressConfirmPage{From: c.Address, To: c.NewAddress, Add: c.Add, Until: confirmUntil(c, say), Language: lang}
	if s.now().Sub(c.AskedAt) > addressConfirmWindow {
		// What else may stand in the way is weighed when the button is
		// pressed (confirmRefusal), in the transaction that would do it.
		page.Refused = say.AddressConfirmExpired()
	}
	return page.Render()
}

// ConfirmAddressByLink does the change an address confirmation's link
// names, as a reply to the confirmation from its new address does
// (confirmChange), and returns the page that says it is done, or why it
// is not. The change is then gone: a second POST is webpage.ErrNoPage,
// as is a token that is no change's.
func (s *Service) ConfirmAddressByLink(ctx context.Context, token string) (string, error) {
	var t *work
	var c store.AddressChange
	var why string
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		var err error
		if c, err = linkedChange(ctx, tx, token); err != nil {
			return err
		}
		// The mails it sends answer no mail, so the work has no sender
		// (as an admin's act): the loop breaker and the refusal budget
		// are for mail. The key names the change by its addresses,
		// never by its token.
		t = &work{Service: s, ctx: ctx, tx: tx,
			key: fmt.Sprintf("web:address:%s:%s:%d", c.Address, c.NewAddress, s.now().UnixNano())}
		if p, err := tx.Player(ctx, c.Address); err == nil {
			t.words = templates.For(p.Language) // the page and its refusal are the player's
		}
		if why, err = t.confirmChange(c); err != nil {
			return err
		}
		return t.enqueue()
	})
	if err != nil {
		return "", err
	}
	if t.out.Len() > 0 {
		s.wakeOutbox()
	}
	page := templates.AddressConfirmPage{From: c.Address, To: c.NewAddress, Add: c.Add, Refused: why, Done: why == "", Language: t.words.Language()}
	// The host may wonder how an address changed: the log says, without
	// the token.
	outcome := "done"
	if why != "" {
		outcome = "refused"
	}
	s.log.Info("address change confirmed by its link", "from", c.Address, "to", c.NewAddress, "add", c.Add, "outcome", outcome)
	return page.Render()
}
