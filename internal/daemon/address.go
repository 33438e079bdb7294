package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A player keeps his games when he changes address (issue 37, part 3):
// `address NEW`, sent where only he can send it (a game's thread, whose
// address is his alone, or pbem's own address when senders are
// authenticated: bareSetting), mails NEW a confirmation whose reply
// address carries a token of its own. The reply to it from NEW, or,
// when pbem serves pages, the button of the page its link leads to
// (address_web.go), moves every row of his address to NEW in one
// transaction (store.MoveAddress); `address add OTHER` adds OTHER as a second address
// of his instead, whose mail is read as his (readAsPlayer) and whose
// mailbox spends his budget (store's budgetKey). The confirmation holds
// nothing of any game: NEW may be anyone's.

// addressTokenPrefix begins the token of a confirmation's reply address
// (pbem+addr-TOKEN@…): no seat token holds a hyphen.
const addressTokenPrefix = "addr-"

// addressConfirmWindow is how long a confirmation can be answered.
const addressConfirmWindow = 24 * time.Hour

// isAddressToken reports whether a mail's token is a confirmation's.
func isAddressToken(token string) bool {
	return strings.HasPrefix(strings.ToLower(token), addressTokenPrefix)
}

// lobbyAddress is `address` at pbem's own address (bareSetting lets it
// through only when senders are authenticated).
func (w *work) lobbyAddress(c parser.Command, grammar parser.Grammar) ([]string, error) {
	line, err := w.askAddress(c)
	return []string{line}, err
}

// address is `address` in a game's thread: answered there.
func (sw *seatWork) address(c parser.Command) error {
	line, err := sw.askAddress(c)
	if err != nil {
		return err
	}
	return sw.seatNotice(sw.seat, templates.Notice{Kind: templates.NoticeAddress,
		Reason: sw.words.AddressHeadline(), Lines: []string{line}})
}

// askAddress records the change c asks for and mails its confirmation
// to the new address, or says why it cannot be done.
func (w *work) askAddress(c parser.Command) (string, error) {
	to := store.NormalizeAddress(c.Addresses[0])
	why, err := w.addressRefusal(w.from, to, c.AddAddress)
	if err != nil || why != "" {
		w.detail = "address not changed"
		return why, err
	}
	now := w.now()
	change := store.AddressChange{Token: addressTokenPrefix + store.NewToken(), Address: w.from,
		NewAddress: to, Add: c.AddAddress, AskedAt: now}
	if err := w.tx.AskAddressChange(w.ctx, change); err != nil {
		return "", err
	}
	button := w.addressButton(change.Token)
	err = w.notice(to, change.Token, templates.Notice{Kind: templates.NoticeAddress,
		Reason: w.words.AddressConfirmHeadline(),
		Lines: []string{
			w.words.AddressConfirmAsked(w.from, to, c.AddAddress),
			w.words.AddressConfirmHow(confirmUntil(change, w.words), button.URL != ""),
		},
		Button: button})
	if err != nil {
		return "", err
	}
	w.detail = "address change asked"
	return w.words.AddressConfirmationSent(to, c.AddAddress), nil
}

// addressRefusal says why the player at from cannot move to (or add)
// the address to, or "".
func (w *work) addressRefusal(from, to string, add bool) (string, error) {
	switch {
	case to == store.NormalizeAddress(from):
		return w.words.AddressSameAsYours(to), nil
	case w.post.Accepts(to) || strings.HasSuffix(to, "@"+intake.BotDomain):
		return w.words.AddressIsPbems(to), nil
	}
	player, err := w.tx.PlayerOf(w.ctx, to)
	if err != nil {
		return "", err
	}
	if player == store.NormalizeAddress(from) && add {
		return w.words.AddressAlreadyYours(to), nil
	}
	if player != to && player != store.NormalizeAddress(from) {
		return w.words.AddressOfAnotherPlayer(to), nil
	}
	inUse, err := w.tx.AddressInUse(w.ctx, to, w.ownMailbox(from, to))
	if err != nil || !inUse {
		return "", err
	}
	return w.words.AddressPlaysOnItsOwn(to), nil
}

// ownMailbox is the mailbox whose ratings would make to a player of its
// own: its mailbox, unless that is from's too (a new spelling of one
// inbox), whose ratings are the player's own.
func (w *work) ownMailbox(from, to string) string {
	if w.post.MailboxOf(to) == w.post.MailboxOf(from) {
		return to
	}
	return w.post.MailboxOf(to)
}

// confirmUntil is when the change c can no longer be confirmed, as the
// confirmation mail and its page write it (UTC).
func confirmUntil(c store.AddressChange, say templates.Words) string {
	return say.Date(c.AskedAt.Add(addressConfirmWindow).UTC(), say.DateLayout()+" 15:04")
}

// confirmAddress handles a mail to a confirmation's reply address: from
// the address it was mailed to, within the day, it does the change.
func (w *work) confirmAddress() error {
	c, err := w.tx.AddressChangeByToken(w.ctx, w.token)
	if errors.Is(err, store.ErrNotFound) {
		// As for any token that is no one's: a stranger must not learn
		// which are valid.
		return w.refuse(templates.NoticeRefusal, w.notYours())
	}
	if err != nil {
		return err
	}
	if store.NormalizeAddress(w.from) != c.NewAddress {
		return w.refuse(templates.NoticeRefusal, w.words.AddressConfirmFromElsewhere())
	}
	why, err := w.confirmChange(c)
	if err != nil || why == "" {
		return err
	}
	return w.refuse(templates.NoticeInvalid, why)
}

// confirmChange does the change c once it is confirmed at its new
// address, by a reply from there (confirmAddress) or by its page's
// button (ConfirmAddressByLink), and mails both addresses; or, when it
// can no longer be done, forgets it and says why. Either way the change
// is gone: confirming it again finds nothing.
func (w *work) confirmChange(c store.AddressChange) (string, error) {
	why, err := w.confirmRefusal(c)
	if err != nil {
		return "", err
	}
	if why != "" {
		return why, w.tx.DropAddressChange(w.ctx, c.Token)
	}
	if c.Add {
		return "", w.addAddress(c)
	}
	return "", w.moveAddress(c, w.words.AddressMovedOld(c.NewAddress))
}

// confirmRefusal says why a confirmed change can no longer be done, or
// "".
func (w *work) confirmRefusal(c store.AddressChange) (string, error) {
	if w.now().Sub(c.AskedAt) > addressConfirmWindow {
		return w.words.AddressConfirmExpired(), nil
	}
	if _, err := w.tx.Player(w.ctx, c.Address); errors.Is(err, store.ErrNotFound) {
		return w.words.AddressConfirmGone(), nil
	} else if err != nil {
		return "", err
	}
	// What was true when it was asked may not be now.
	return w.addressRefusal(c.Address, c.NewAddress, c.Add)
}

// moveAddress moves the player to the confirmed address, and tells the
// old address once (told: how it came about) and the new one.
func (w *work) moveAddress(c store.AddressChange, told string) error {
	err := w.tx.MoveAddress(w.ctx, store.AddressMove{Old: c.Address, New: c.NewAddress,
		OldMailbox: w.post.MailboxOf(c.Address), NewMailbox: w.post.MailboxOf(c.NewAddress)})
	if err != nil {
		return err
	}
	w.outcome, w.detail = OutcomeAnswered, "address moved"
	headline := w.words.AddressMovedHeadline()
	if err := w.notice(c.Address, "", templates.Notice{Kind: templates.NoticeAddress, Reason: headline,
		Lines: []string{told}}); err != nil {
		return err
	}
	return w.notice(c.NewAddress, "", templates.Notice{Kind: templates.NoticeAddress, Reason: headline,
		Lines: []string{w.words.AddressMovedNew(c.Address)}})
}

// addAddress adds the confirmed address to the player's, and tells both.
func (w *work) addAddress(c store.AddressChange) error {
	err := w.tx.AddAlias(w.ctx, store.Alias{Alias: c.NewAddress, Address: c.Address,
		AliasMailbox: w.post.MailboxOf(c.NewAddress), Mailbox: w.post.MailboxOf(c.Address)})
	if err != nil {
		return err
	}
	if err := w.tx.DropAddressChange(w.ctx, c.Token); err != nil {
		return err
	}
	w.outcome, w.detail = OutcomeAnswered, "address added"
	n := templates.Notice{Kind: templates.NoticeAddress, Reason: w.words.AddressAddedHeadline(),
		Lines: []string{w.words.AddressAdded(c.NewAddress, c.Address)}}
	if err := w.notice(c.Address, "", n); err != nil {
		return err
	}
	return w.notice(c.NewAddress, "", n)
}

// readAsPlayer makes the sender of a mail from an address added to a
// player's (address add) that player: his seats' mail, his settings,
// his budget.
func (w *work) readAsPlayer() error {
	player, err := w.tx.PlayerOf(w.ctx, w.from)
	if err != nil {
		return err
	}
	if player != store.NormalizeAddress(w.from) {
		w.from = player
	}
	return nil
}

// AdminAddress moves the player at old to the address to, as pbem admin
// address does: the host needs no confirmation. It is written to the
// audit log (under no game), and the old and new addresses are mailed as
// after a confirmation. A refusal wraps admin.ErrRefused.
func (s *Service) AdminAddress(ctx context.Context, old, to, actor string) error {
	var t *work
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		t = &work{Service: s, ctx: ctx, tx: tx, key: fmt.Sprintf("admin:address:%s:%s:%d", old, to, s.now().UnixNano())}
		if err := t.adminAddress(store.NormalizeAddress(old), store.NormalizeAddress(to), actor); err != nil {
			return err
		}
		return t.enqueue()
	})
	if err == nil && t != nil && t.out.Len() > 0 {
		s.wakeOutbox()
	}
	return err
}

// adminAddress is AdminAddress in w's transaction.
func (w *work) adminAddress(old, to, actor string) error {
	if actor == "" {
		return adminErr(w.words.AdminNameMissing())
	}
	if a, err := mail.ParseAddress(to); err != nil || a.Address != to || a.Name != "" {
		return adminErr(w.words.AddressNotValid(to))
	}
	if _, err := w.tx.Player(w.ctx, old); errors.Is(err, store.ErrNotFound) {
		return adminErr(w.words.AddressNoPlayer(old))
	} else if err != nil {
		return err
	}
	why, err := w.addressRefusal(old, to, false)
	if err != nil {
		return err
	}
	if why != "" {
		return adminErr(why)
	}
	if _, err := w.tx.AppendAudit(w.ctx, 0, actor, parser.KindAddress.String(), old+" -> "+to, w.now()); err != nil {
		return err
	}
	return w.moveAddress(store.AddressChange{Address: old, NewAddress: to}, w.words.AddressMovedByHost(to))
}

// playersOf is addrs with each address added to a player's (address add)
// replaced by his: an invitation to it seats him, at the one address his
// mail goes to.
func (w *work) playersOf(addrs []string) ([]string, error) {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		p, err := w.tx.PlayerOf(w.ctx, a)
		if err != nil {
			return nil, err
		}
		out[i] = a
		if p != store.NormalizeAddress(a) {
			out[i] = p
		}
	}
	return out, nil
}
