// Package web serves pbem's game pages over HTTP: each seat's table at
// /s/TOKEN, where TOKEN is the seat's web link (store.NewLinkToken: a
// secret of its own, not the seat's mail token), and the public page of
// a game open to spectators, whose token leads to no seat. The pages
// themselves come from the turn loop (daemon.Service.Page), which draws
// them with the games' own templates; this package owns the HTTP side:
// the routes, the security headers, the limits and the rate limit.
//
// Every page is read-only: GET and HEAD only, no form that changes
// anything, no cookie. The exceptions are a mail's one-click
// unsubscribe address, /u/TOKEN (unsubscribe.go), which a POST turns the
// game mail off with, and an address confirmation's link, /a/TOKEN
// (confirm.go), which a POST confirms the change of address with; a GET
// of either only shows. A player's calendar feed, /c/TOKEN.ics
// (calendar.go), is read-only as a page. A page offers its seat's options as the mail's
// mailto: links, which write a mail the player sends himself. A page of
// a game going on follows it: its one script (/live.js) listens to the
// page's event stream, /e/TOKEN (stream.go), and fetches the page again
// when its version changes; without JavaScript it refreshes itself.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Pages renders the page of a link token at a point of its game's
// history (at < 0: now), or returns an error that Is ErrNoPage. A Pages
// that is also Versioned gives its pages an ETag (etag.go).
type Pages interface {
	Page(ctx context.Context, token string, at int) (string, error)
}

// Security headers on every response, pages and errors alike.
const (
	// contentSecurityPolicy allows one script, /live.js (the only script
	// this server serves: every other answer is HTML or text, and
	// nosniff keeps a browser from running it), no inline script, no
	// frame, connections only to the server itself (the event stream and
	// the page's own fetch), and no remote anything: only the page's own
	// inline styles (the mails' markup, styled inline for mail
	// programs), data: images, and the history form submitted to the
	// page itself.
	contentSecurityPolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	// maxHeaderBytes bounds a request's header; a page request is a line
	// and a few headers.
	maxHeaderBytes = 8 << 10
	// maxAt bounds the history point a request may ask for (?at=N): more
	// digits than a game has points is no page.
	maxAtDigits = 6
)

// securityHeaders are set on every answer of the web port: by
// ServeHTTP on the handler's, and by capConn.Write on those net/http
// writes itself.
var securityHeaders = [...]struct{ name, value string }{
	{"Content-Security-Policy", contentSecurityPolicy},
	{"Referrer-Policy", "no-referrer"},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Cache-Control", "no-store"},
}

// securityHeaderLines is securityHeaders as header lines, each ending in
// CRLF.
var securityHeaderLines = func() string {
	var b strings.Builder
	for _, f := range securityHeaders {
		b.WriteString(f.name + ": " + f.value + "\r\n")
	}
	return b.String()
}()

// ErrNoPage is what Pages returns for a token or a point that leads
// nowhere: the answer is the one 404 of every unknown address.
var ErrNoPage = errors.New("web: no such page")

// Connection bounds of a Server made without WithConnLimits (pbem serve
// passes web.max_connections and web.max_connections_per_client), and
// the idle timeout.
const (
	defaultMaxConns          = 1024
	defaultMaxConnsPerClient = 64
	// idleTimeout closes a kept-alive connection that sends no next
	// request: a browser reads its page at once, and follows the game on
	// an event stream of its own, so an idle connection only holds a
	// descriptor.
	idleTimeout = 5 * time.Second
)

// Server serves the pages.
type Server struct {
	pages     Pages
	isNone    func(error) bool
	log       *slog.Logger
	limiter   *limiter
	maxConns  int // open connections in all, before the descriptor bound
	perClient int // open connections per client address
	idle      time.Duration
	streams   *streamCounter   // the event streams open, and their bounds
	recheck   time.Duration    // WithStreamRecheck
	unsub     Unsubscriber     // WithUnsubscribe; nil: /u/ is no page
	confirm   AddressConfirmer // WithAddressConfirm; nil: /a/ is no page
	calendars Calendars        // WithCalendar; nil: /c/ is no page
}

// Option changes how a Server is made.
type Option func(*Server)

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// WithRate sets the per-address rate limit: burst requests at once, then
// one every every.
func WithRate(burst int, every time.Duration) Option {
	return func(s *Server) { s.limiter = newLimiter(burst, every, time.Now) }
}

// WithConnLimits bounds the open connections: perClient per client
// address (an IPv6 client by its /64), total in all. Serve lowers total
// further to half the process's descriptor limit (connLimit).
func WithConnLimits(perClient, total int) Option {
	return func(s *Server) { s.perClient, s.maxConns = perClient, total }
}

// WithIdleTimeout sets how long a kept-alive connection may wait for its
// next request.
func WithIdleTimeout(d time.Duration) Option { return func(s *Server) { s.idle = d } }

// WithNoPage adds a test for the errors of pages that mean "no such
// page" besides ErrNoPage (daemon.ErrNoPage).
func WithNoPage(is func(error) bool) Option { return func(s *Server) { s.isNone = is } }

// New makes a server of pages.
func New(pages Pages, opts ...Option) *Server {
	s := &Server{pages: pages, log: slog.Default(), limiter: newLimiter(30, 2*time.Second, time.Now),
		maxConns: defaultMaxConns, perClient: defaultMaxConnsPerClient, idle: idleTimeout, recheck: streamRecheck}
	for _, o := range opts {
		o(s)
	}
	s.streams = streamLimits(s.perClient, s.maxConns)
	return s
}

// Serve serves on ln until ctx is done, then shuts down, letting the
// requests being answered finish for a few seconds. At most the
// connection limits' connections are open at once (capListener).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	fds, known := descriptorLimit()
	total := connLimit(s.maxConns, fds, known)
	s.streams = streamLimits(s.perClient, total)
	s.log.Info("web connections bounded", "per_client", s.perClient, "total", total, "idle_timeout", s.idle,
		"streams_per_client", s.streams.perClient, "streams", s.streams.total)
	ln = newCapListener(ln, s.perClient, total)
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      20 * time.Second,
		IdleTimeout:       s.idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		// OPTIONS * reaches the handler, which answers it as any path
		// that is no page, headers and all.
		DisableGeneralOptionsHandler: true,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
		// Back to idle, the connection's next answer is no longer the
		// handler's until ServeHTTP says so (capConn.Write).
		ConnState: func(c net.Conn, st http.ConnState) {
			if cc, ok := c.(*capConn); ok && st == http.StateIdle {
				cc.answering.Store(false)
			}
		},
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-done
	return err
}

// ServeHTTP answers one request. The token is never logged.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	markAnswering(r.Context())
	h := w.Header()
	for _, f := range securityHeaders {
		h.Set(f.name, f.value)
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	if !s.limiter.allow(remoteHost(r.RemoteAddr)) {
		// Closing the connection frees its descriptor: a refused client
		// gets no keep-alive to wait out.
		h.Set("Connection", "close")
		h.Set("Retry-After", "5")
		s.plain(w, r, http.StatusTooManyRequests, "Too many requests from your address: wait a few seconds.")
		return
	}
	if r.URL.Path == "/live.js" && r.URL.RawQuery == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		s.script(w, r)
		return
	}
	if token, ok := strings.CutPrefix(r.URL.Path, "/e/"); ok && tokenShape(token) && r.URL.RawQuery == "" {
		s.stream(w, r, token)
		return
	}
	if token, ok := strings.CutPrefix(r.URL.Path, "/u/"); ok {
		s.unsubscribe(w, r, token)
		return
	}
	if token, ok := strings.CutPrefix(r.URL.Path, "/a/"); ok {
		s.confirmAddress(w, r, token)
		return
	}
	if name, ok := strings.CutPrefix(r.URL.Path, "/c/"); ok {
		s.calendar(w, r, name)
		return
	}
	token, ok := strings.CutPrefix(r.URL.Path, "/s/")
	at := -1
	if v := r.URL.Query().Get("at"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || len(v) > maxAtDigits {
			ok = false
		}
		at = n
	}
	if !ok || !tokenShape(token) {
		s.notFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		s.plain(w, r, http.StatusMethodNotAllowed, "This page can only be read.")
		return
	}
	s.page(w, r, token, at)
}

// page answers a page: with its ETag, and a 304 without it when the
// browser holds it already (etag.go).
func (s *Server) page(w http.ResponseWriter, r *http.Request, token string, at int) {
	page, etag, err := s.pageOf(r.Context(), token, at)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	h := w.Header()
	if etag != "" {
		h.Set("ETag", etag)
		h.Set("Cache-Control", pageCacheControl)
		if notModified(r, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	// No Refresh header: a page of a game going on refreshes itself
	// where no script runs (a <noscript> refresh), and one that is over,
	// or a past point, does not.
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(page))
	}
}

// notFound is the one answer for every address that leads to no page:
// a token that never was, one that was renewed or used, a game closed to
// spectators, a path that is not a page. It says nothing of which.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.plain(w, r, http.StatusNotFound, "There is no page here. If a link from a mail of pbem led you here, it no longer works: a table's link may have been renewed (the latest mail of the game has the current one), and an address confirmation's link works once.")
}

// plain writes a short HTML page with one sentence.
func (s *Server) plain(w http.ResponseWriter, r *http.Request, code int, sentence string) {
	body := fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>%d %s</title></head><body><p>%s</p></body></html>\n",
		code, http.StatusText(code), sentence)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body))
	}
}

// tokenShape reports whether tok could be a link token: 26 characters of
// the tokens' base32 (store.NewLinkToken). Anything else is answered
// without reading the store.
func tokenShape(tok string) bool {
	if len(tok) != 26 {
		return false
	}
	for _, r := range tok {
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}

// remoteHost is the client's address without its port.
func remoteHost(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}
