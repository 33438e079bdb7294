package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// A player's calendar feed, /c/TOKEN.ics (issue 38, part 4): an
// iCalendar document of the deadlines he owes in all his games, which a
// calendar program subscribes to and reads again now and then. The
// token is a secret of its own (as a page's, 26 characters); the feed is
// drawn by the turn loop (daemon.Service.Calendar) from the store at
// each request, so it follows every deadline that moves. As a page, it
// is read-only (GET and HEAD), bounded by the same limits, and an
// unknown token is the one 404 of every unknown address. The token is
// never logged.

// Calendars draws the calendar feed of a feed token, or returns an
// error that Is ErrNoPage (or the server's WithNoPage).
type Calendars interface {
	Calendar(ctx context.Context, token string) ([]byte, error)
}

// WithCalendar serves the players' calendar feeds, /c/TOKEN.ics;
// without it they are no page, as any unknown address.
func WithCalendar(c Calendars) Option { return func(s *Server) { s.calendars = c } }

// calendarContentType is the feed's media type (RFC 5545, section 8.1).
const calendarContentType = "text/calendar; charset=utf-8"

// calendar answers a request for /c/NAME, NAME being TOKEN.ics.
func (s *Server) calendar(w http.ResponseWriter, r *http.Request, name string) {
	token, ok := strings.CutSuffix(name, ".ics")
	if s.calendars == nil || !ok || !tokenShape(token) || r.URL.RawQuery != "" {
		s.notFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.plain(w, r, http.StatusMethodNotAllowed, "This page can only be read.")
		return
	}
	feed, err := s.calendars.Calendar(r.Context(), token)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	h := w.Header()
	// Cache-Control stays no-store (securityHeaders): the feed is a
	// secret, and a calendar program asks again when it wants news.
	h.Set("Content-Type", calendarContentType)
	h.Set("Content-Length", strconv.Itoa(len(feed)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(feed)
	}
}
