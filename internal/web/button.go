package web

import (
	"context"
	"net/http"
	"strconv"
)

// buttonPage is an address of the server whose GET or HEAD only shows a
// page with a button, and whose POST of that button does one thing: a
// mail's one-click unsubscribe (unsubscribe.go) and an address
// confirmation's link (confirm.go). So a link scanner that follows every
// address in a mail changes nothing.
type buttonPage struct {
	show func(ctx context.Context, token string) (string, error) // the page of a GET
	do   func(ctx context.Context, token string) (string, error) // the POST's work, and its page
	// body reports whether a POST's body, read within its bound, is
	// the button's; badBody answers one that is not, notAllowed a
	// method other than GET, HEAD and POST.
	body                func(w http.ResponseWriter, r *http.Request) bool
	badBody, notAllowed string
}

// serveButton answers a request for a button page's token, whose shape
// the caller has checked.
func (s *Server) serveButton(w http.ResponseWriter, r *http.Request, b buttonPage, token string) {
	var page string
	var err error
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		page, err = b.show(r.Context(), token)
	case http.MethodPost:
		if !b.body(w, r) {
			s.plain(w, r, http.StatusBadRequest, b.badBody)
			return
		}
		page, err = b.do(r.Context(), token)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		s.plain(w, r, http.StatusMethodNotAllowed, b.notAllowed)
		return
	}
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(page))
	}
}
