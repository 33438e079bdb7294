package web

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Live is what a Pages may also do, for pages that follow their game
// without reloading: the version of a token's present page (a name for
// what it shows, made from that page alone), and a channel that receives
// when the token's game may have changed. A token that leads nowhere is
// ErrNoPage (or what WithNoPage recognises).
type Live interface {
	Version(ctx context.Context, token string) (string, error)
	Watch(ctx context.Context, token string) (changed <-chan struct{}, stop func(), err error)
}

// liveScript is the pages' one script, served at /live.js.
//
//go:embed live.js
var liveScript []byte

// The event streams (/e/TOKEN).
const (
	// streamRecheck is how often a stream draws its page again even when
	// this process heard of no change (WithStreamRecheck): a move another
	// node committed (or pbem admin, another process) is seen within it,
	// as the refresh of a page without JavaScript.
	streamRecheck = 30 * time.Second
	// streamLife bounds a stream: then it ends, and the browser opens a
	// new one after streamRetry, which counts against the rate limit
	// like any request.
	streamLife  = 10 * time.Minute
	streamRetry = 3 * time.Second
	// streamWrite is how long one event may take to be written.
	streamWrite = 10 * time.Second
	// A stream holds a connection: at most one in streamShare of the
	// connections of an address, and one in two of all, are streams, so
	// that pages are still served when every stream is taken.
	streamShare = 8
)

// WithStreamRecheck sets how often an event stream draws its page again
// when it heard of no change (streamRecheck).
func WithStreamRecheck(d time.Duration) Option { return func(s *Server) { s.recheck = d } }

// streamCounter bounds the open event streams: perClient per client
// address (as the connections, an IPv6 address by its /64), total in all.
type streamCounter struct {
	perClient, total int

	mu       sync.Mutex
	open     int
	byClient map[string]int
}

// streamLimits are the stream bounds of a server whose connections are
// bounded to perClient and total.
func streamLimits(perClient, total int) *streamCounter {
	return &streamCounter{perClient: max(1, perClient/streamShare), total: max(1, total/2), byClient: map[string]int{}}
}

// take counts one more stream of key's, if the bounds allow it.
func (c *streamCounter) take(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open >= c.total || c.byClient[key] >= c.perClient {
		return false
	}
	c.open++
	c.byClient[key]++
	return true
}

// give counts one stream of key's ended.
func (c *streamCounter) give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open--
	if c.byClient[key]--; c.byClient[key] <= 0 {
		delete(c.byClient, key)
	}
}

// remoteKey is the per-client key of a request's address, as clientKey
// counts connections.
func remoteKey(remote string) string {
	host := remoteHost(remote)
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	return clientKey(&net.TCPAddr{IP: ip})
}

// script answers /live.js.
func (s *Server) script(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(liveScript)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(liveScript)
	}
}

// stream answers /e/TOKEN: the server-sent events of the token's page.
// Each event is the version of the seat's own present page ("event:
// version", "data: 0123456789abcdef"), sent when the stream opens and
// whenever it changes: nothing else, so the stream tells no more than
// the page it belongs to. The page's script fetches the page itself
// when the version is not the one it shows.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, token string) {
	live, ok := s.pages.(Live)
	if !ok || r.Method != http.MethodGet {
		s.notFound(w, r)
		return
	}
	key := remoteKey(r.RemoteAddr)
	if !s.streams.take(key) {
		w.Header().Set("Retry-After", "30")
		s.plain(w, r, http.StatusServiceUnavailable, "Too many open pages from your address, or in all: this page follows the game again in a while.")
		return
	}
	ctx := r.Context()
	changed, stop, err := live.Watch(ctx, token)
	if err != nil {
		s.streams.give(key)
		s.pageError(w, r, err)
		return
	}
	// Stopped last, once the stream's place is free again (tests wait
	// for the stop).
	defer stop()
	defer s.streams.give(key)
	version, err := live.Version(ctx, token)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	rc := http.NewResponseController(w)
	// The stream outlives the server's read timeout: without this, the
	// read that watches for the client's leaving would end it.
	_ = rc.SetReadDeadline(time.Time{})
	send := func(event string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(streamWrite))
		if _, err := fmt.Fprint(w, event); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	w.WriteHeader(http.StatusOK)
	if !send(fmt.Sprintf("retry: %d\n\nevent: version\ndata: %s\n\n", streamRetry.Milliseconds(), version)) {
		return
	}
	s.follow(ctx, live, token, version, changed, send)
}

// follow sends the version of token's page each time it changes, until
// the client leaves, the server stops or streamLife is over.
func (s *Server) follow(ctx context.Context, live Live, token, version string, changed <-chan struct{}, send func(string) bool) {
	end := time.NewTimer(streamLife)
	defer end.Stop()
	recheck := time.NewTicker(s.recheck)
	defer recheck.Stop()
	for {
		woke := false // by a change of the game, not the clock
		select {
		case <-ctx.Done():
			return
		case <-end.C:
			return
		case <-changed:
			woke = true
		case <-recheck.C:
		}
		v, err := live.Version(ctx, token)
		if err != nil {
			// A renewed link, a page no longer drawn: the stream ends,
			// and the page's next fetch says why.
			if !errors.Is(err, ErrNoPage) && (s.isNone == nil || !s.isNone(err)) && ctx.Err() == nil {
				s.log.Error("web page version not drawn", "error", err)
			}
			return
		}
		var event string
		switch {
		case v != version:
			version, event = v, "event: version\ndata: "+v+"\n\n"
		case !woke:
			// A comment, on the clock alone, never on a change this page
			// does not show (which would tell that something unseen
			// happened): keeps proxies from closing a quiet stream.
			event = ": still here\n\n"
		default:
			continue
		}
		if !send(event) {
			return
		}
	}
}

// pageError answers a page's error: the 404 for no page, else the 500.
func (s *Server) pageError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, ErrNoPage) || (s.isNone != nil && s.isNone(err)) {
		s.notFound(w, r)
		return
	}
	s.log.Error("web page not rendered", "error", err)
	s.plain(w, r, http.StatusInternalServerError, "The page cannot be shown now. Try again later.")
}

// streamsOf is how many streams key has open.
func (s *Server) streamsOf(key string) int {
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	return s.streams.byClient[key]
}
