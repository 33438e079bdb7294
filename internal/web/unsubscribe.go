package web

import (
	"context"
	"mime"
	"net/http"
	"strings"
)

// One-click unsubscribe (RFC 8058). A seat's mails carry, when pbem
// serves pages, an address /u/TOKEN beside the mailto: of their
// List-Unsubscribe (internal/outgoing/unsubscribe.go). A mail program
// POSTs "List-Unsubscribe=One-Click" to it; a person who opens it gets a
// page that says what its button does, and the button POSTs the same.
// A GET or HEAD changes nothing, so that a link scanner that follows
// every address in a mail unsubscribes no one. The POST is the only
// request of this server that changes anything, and it can change one
// thing only: the token's seat's player's game mail, turned off. The
// token is checked, and the work done, by the turn loop
// (daemon.Service.Unsubscribe); this file is the HTTP side.

// Unsubscriber does what the one-click addresses ask. Both methods
// return the page to answer with, or an error that Is ErrNoPage (or the
// server's WithNoPage) for a token that is no one's.
type Unsubscriber interface {
	// UnsubscribeForm is the page of a GET: it changes nothing.
	UnsubscribeForm(ctx context.Context, token string) (string, error)
	// Unsubscribe does it: doing it twice is doing it once.
	Unsubscribe(ctx context.Context, token string) (string, error)
}

// WithUnsubscribe serves the one-click unsubscribe addresses, /u/TOKEN;
// without it they are no page, as any unknown address.
func WithUnsubscribe(u Unsubscriber) Option { return func(s *Server) { s.unsub = u } }

const (
	// maxUnsubscribeBody bounds a one-click POST's body: RFC 8058's is
	// the 26 bytes of "List-Unsubscribe=One-Click", in a form that
	// multipart/form-data makes a few hundred.
	maxUnsubscribeBody = 4 << 10
	// maxUnsubscribeToken bounds the token's length before anything
	// reads it (outgoing.UnsubscribeToken's are well under).
	maxUnsubscribeToken = 80
	// oneClickField and oneClickValue are what a one-click POST sends
	// (RFC 8058, section 3.1).
	oneClickField = "List-Unsubscribe"
	oneClickValue = "One-Click"
)

// unsubscribe answers a request for /u/TOKEN.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request, token string) {
	if s.unsub == nil || !unsubscribeTokenShape(token) || r.URL.RawQuery != "" {
		s.notFound(w, r)
		return
	}
	s.serveButton(w, r, buttonPage{show: s.unsub.UnsubscribeForm, do: s.unsub.Unsubscribe, body: oneClickBody,
		badBody:    "This address takes only a one-click unsubscribe: List-Unsubscribe=One-Click.",
		notAllowed: "This address can be read, or sent a one-click unsubscribe."}, token)
}

// oneClickBody reports whether the POST's body, read to at most
// maxUnsubscribeBody bytes, is a form, URL-encoded or multipart as RFC
// 8058 allows, whose List-Unsubscribe field is One-Click.
func oneClickBody(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxUnsubscribeBody)
	typ, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var err error
	switch typ {
	case "application/x-www-form-urlencoded":
		err = r.ParseForm()
	case "multipart/form-data":
		err = r.ParseMultipartForm(maxUnsubscribeBody)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
	default:
		return false
	}
	return err == nil && r.PostForm.Get(oneClickField) == oneClickValue
}

// unsubscribeTokenShape reports whether tok could be a one-click token:
// short, of digits, '-' and the tokens' lower-case base32. Anything else
// is answered without reading the store.
func unsubscribeTokenShape(tok string) bool {
	if tok == "" || len(tok) > maxUnsubscribeToken {
		return false
	}
	return strings.IndexFunc(tok, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) < 0
}
