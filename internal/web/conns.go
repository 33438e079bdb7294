package web

import (
	"bytes"
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// capListener bounds the open connections it hands out: perClient per
// client address, total in all. A connection past either bound is
// closed as soon as it is accepted (with a reset: no lingering), so a
// flood holds at most total descriptors of pbem's, and one address at
// most perClient of them; the descriptors left are the store's, the mail
// servers' and the metrics'.
type capListener struct {
	net.Listener
	perClient, total int

	mu       sync.Mutex
	open     int
	byClient map[string]int
}

func newCapListener(ln net.Listener, perClient, total int) *capListener {
	return &capListener{Listener: ln, perClient: perClient, total: total, byClient: map[string]int{}}
}

// Accept returns the next connection within the bounds; those past them
// are closed unanswered.
func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr())
		if l.take(key) {
			return &capConn{Conn: c, release: sync.OnceFunc(func() { l.give(key) })}, nil
		}
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset leaves no TIME_WAIT behind
		}
		_ = c.Close()
	}
}

// take counts one more connection of key's, if the bounds allow it.
func (l *capListener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.total || l.byClient[key] >= l.perClient {
		return false
	}
	l.open++
	l.byClient[key]++
	return true
}

// give counts one connection of key's closed; an address with none open
// is forgotten, so the map holds at most total addresses.
func (l *capListener) give(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byClient[key]--; l.byClient[key] <= 0 {
		delete(l.byClient, key)
	}
}

// connLimit is the web listener's bound on open connections: want, but
// at most half of the process's descriptors (fds, when known), so that a
// full web port leaves the other half to the store, the LMTP and mail
// servers' and the metrics' connections, and the files pbem opens.
func connLimit(want int, fds uint64, known bool) int {
	if !known {
		return want
	}
	return int(min(uint64(want), max(fds/2, 1)))
}

// clientKey is what the per-client bound counts by: the IPv4 address,
// or an IPv6 address's /64, which one subscriber usually holds whole.
func clientKey(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// capConn is a connection capListener counts until it is closed. It also
// gives net/http's own answers the security headers (securityHeaders).
type capConn struct {
	net.Conn
	release func()
	// answering is set while the handler's answer is being written: from
	// ServeHTTP until the connection is idle again (Serve's ConnState).
	// Any other response net/http writes is its own.
	answering atomic.Bool
}

func (c *capConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// CloseWrite half-closes, as net/http does before it hangs up on a
// request it refused (431), so that the client reads the answer rather
// than a reset.
func (c *capConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Write adds the security headers to net/http's own answers: those it
// writes without calling the handler (400 for a malformed request, 431,
// 417, 501, 505). Each is one Write of the whole head, after its status
// line; the handler's answers already carry them.
func (c *capConn) Write(p []byte) (int, error) {
	if c.answering.Load() || !bytes.HasPrefix(p, []byte("HTTP/1.")) {
		return c.Conn.Write(p)
	}
	line, rest, ok := bytes.Cut(p, []byte("\r\n"))
	if !ok {
		return c.Conn.Write(p)
	}
	out := make([]byte, 0, len(p)+len(securityHeaderLines))
	out = append(append(append(append(out, line...), "\r\n"...), securityHeaderLines...), rest...)
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// connKey holds a request's *capConn in its context (Serve's
// ConnContext), for ServeHTTP to mark its answer.
type connKey struct{}

// markAnswering tells r's connection that the handler answers it.
func markAnswering(ctx context.Context) {
	if c, ok := ctx.Value(connKey{}).(*capConn); ok {
		c.answering.Store(true)
	}
}
