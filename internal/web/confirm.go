package web

import (
	"context"
	"mime"
	"net/http"
)

// The one-tap confirmation of a change of address. When pbem serves
// pages, the confirmation mailed to a player's new address carries a
// link /a/TOKEN beside its reply address (internal/daemon/address_web.go).
// As one-click unsubscribe's (unsubscribe.go), a GET or HEAD of it only
// shows a page with a button, so that a link scanner that follows every
// address in a mail confirms nothing; the button POSTs the page's form,
// which does the change. The token is checked, and the work done, by the
// turn loop (daemon.Service.ConfirmAddressByLink); this file is the HTTP
// side.

// AddressConfirmer does what the confirmation links ask. Both methods
// return the page to answer with, or an error that Is ErrNoPage (or the
// server's WithNoPage) for a token that is no change's.
type AddressConfirmer interface {
	// AddressConfirmForm is the page of a GET: it changes nothing.
	AddressConfirmForm(ctx context.Context, token string) (string, error)
	// ConfirmAddressByLink does it, or says why not: once done or
	// refused, the token is no change's.
	ConfirmAddressByLink(ctx context.Context, token string) (string, error)
}

// WithAddressConfirm serves the address confirmation links, /a/TOKEN;
// without it they are no page, as any unknown address.
func WithAddressConfirm(a AddressConfirmer) Option { return func(s *Server) { s.confirm = a } }

const (
	// maxConfirmBody bounds a confirmation POST's body: the page's form
	// sends the 16 bytes of "change=confirmed".
	maxConfirmBody = 1 << 10
	// confirmTokenLen is the length of a confirmation link's token (the
	// change's token, store.NewToken, without its "addr-").
	confirmTokenLen = 16
	// confirmField and confirmValue are what the page's form POSTs
	// (templates.AddressConfirmPage).
	confirmField = "change"
	confirmValue = "confirmed"
)

// confirmAddress answers a request for /a/TOKEN.
func (s *Server) confirmAddress(w http.ResponseWriter, r *http.Request, token string) {
	if s.confirm == nil || !confirmTokenShape(token) || r.URL.RawQuery != "" {
		s.notFound(w, r)
		return
	}
	s.serveButton(w, r, buttonPage{show: s.confirm.AddressConfirmForm, do: s.confirm.ConfirmAddressByLink, body: confirmBody,
		badBody: "This address takes only its page's button.", notAllowed: "This page can be read, or sent its button."}, token)
}

// confirmBody reports whether the POST's body, read to at most
// maxConfirmBody bytes, is the page's URL-encoded form.
func confirmBody(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxConfirmBody)
	typ, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if typ != "application/x-www-form-urlencoded" {
		return false
	}
	return r.ParseForm() == nil && r.PostForm.Get(confirmField) == confirmValue
}

// confirmTokenShape reports whether tok could be a confirmation link's
// token: 16 characters of the tokens' lower-case base32. Anything else
// is answered without reading the store.
func confirmTokenShape(tok string) bool {
	if len(tok) != confirmTokenLen {
		return false
	}
	for _, r := range tok {
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}
