package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
)

// guard bounds every read of these tests: a failure guard against a
// hang, never a timing a test relies on.
const guard = 20 * time.Second

// startServer serves fakePages on a loopback port until the test ends,
// and returns the port's address.
func startServer(t *testing.T, opts ...Option) string {
	t.Helper()
	ln, err := newLocalListener()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	s := New(&fakePages{}, append([]Option{WithRate(1000, time.Millisecond)}, opts...)...)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := testlib.Receive(t, done, "the server to stop"); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// client is one raw connection, from a loopback address of the test's
// choosing (Linux answers on all of 127.0.0.0/8).
type client struct {
	net.Conn
	r *bufio.Reader
}

func dialFrom(t *testing.T, from, addr string) *client {
	t.Helper()
	c, err := tryDialFrom(t, from, addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tryDialFrom is dialFrom that returns the error: a connection the
// server refuses at once may be reset before the dial returns.
func tryDialFrom(t *testing.T, from, addr string) (*client, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial from %s: %w", from, err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(guard))
	return &client{Conn: c, r: bufio.NewReader(c)}, nil
}

// ask sends raw and reads one response, its body read whole; an error
// is the server's hanging up (EOF or a reset) before answering.
func (c *client) ask(raw string) (*http.Response, string, error) {
	if _, err := io.WriteString(c, raw); err != nil {
		return nil, "", err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return nil, "", err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b), err
}

// hungUp waits for the server to close the connection: a read that
// ends in EOF or a reset, never in the guard's timeout.
func (c *client) hungUp() error {
	_, err := c.r.ReadByte()
	var ne net.Error
	switch {
	case err == nil:
		return fmt.Errorf("the server sent more")
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("the connection was still open after %v", guard)
	}
	return nil
}

const pageRequest = "GET /s/" + goodToken + " HTTP/1.1\r\nHost: pbem.test\r\n\r\n"

// TestConnectionsCapped is finding 4 of issue 33: a flood of connections
// from one address, or from many, keeps only the cap open (the rest are
// closed at once, unanswered), and another client is still answered;
// when the flood's connections close, their address is served again.
func TestConnectionsCapped(t *testing.T) {
	for _, tc := range []struct {
		name             string
		perClient, total int
		flood            func(i int) string // the address of the flood's i-th connection
		other            string             // a client that must still be served
	}{
		{"one address past its cap", 8, 100, func(int) string { return "127.0.0.1" }, "127.0.0.2"},
		{"many addresses past the total", 100, 8, func(i int) string { return fmt.Sprintf("127.0.1.%d", i+1) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := startServer(t, WithConnLimits(tc.perClient, tc.total), WithIdleTimeout(time.Hour))
			const flood = 20
			want := min(tc.perClient, tc.total)
			var open []*client
			for i := range flood {
				c, err := tryDialFrom(t, tc.flood(i), addr)
				if err != nil {
					continue
				}
				if res, _, err := c.ask(pageRequest); err == nil && res.StatusCode == 200 {
					open = append(open, c)
				}
			}
			if len(open) != want {
				t.Fatalf("%d of %d connections answered and kept, want the cap, %d", len(open), flood, want)
			}
			if tc.other != "" {
				if res, _, err := dialFrom(t, tc.other, addr).ask(pageRequest); err != nil || res.StatusCode != 200 {
					t.Fatalf("another client during the flood: %v %v", res, err)
				}
			}
			for _, c := range open {
				c.Close()
			}
			testlib.WaitFor(t, func() bool {
				c, err := tryDialFrom(t, tc.flood(0), addr)
				if err != nil {
					return false
				}
				res, _, err := c.ask(pageRequest)
				return err == nil && res.StatusCode == 200
			}, "the flood's address to be served once its connections closed")
		})
	}
}

// TestRefusalCloses: a 429 closes its connection (Connection: close),
// so that a refused client holds no descriptor of pbem's.
func TestRefusalCloses(t *testing.T) {
	addr := startServer(t, WithRate(1, time.Hour))
	c := dialFrom(t, "127.0.0.1", addr)
	if res, _, err := c.ask(pageRequest); err != nil || res.StatusCode != 200 {
		t.Fatalf("first request: %v %v", res, err)
	}
	res, _, err := c.ask(pageRequest)
	if err != nil || res.StatusCode != http.StatusTooManyRequests || !res.Close {
		t.Fatalf("past the rate: %v %v, want a 429 with Connection: close", res, err)
	}
	if err := c.hungUp(); err != nil {
		t.Fatalf("after the 429: %v", err)
	}
}

// TestIdleCloses: a kept-alive connection that sends nothing more is
// closed after the idle timeout.
func TestIdleCloses(t *testing.T) {
	addr := startServer(t, WithIdleTimeout(50*time.Millisecond))
	c := dialFrom(t, "127.0.0.1", addr)
	if res, _, err := c.ask(pageRequest); err != nil || res.StatusCode != 200 || res.Close {
		t.Fatalf("request: %v %v", res, err)
	}
	if err := c.hungUp(); err != nil {
		t.Fatalf("an idle connection: %v", err)
	}
}

// TestOwnAnswersCarryHeaders is finding 7 of issue 33: the answers
// net/http writes itself, without the handler (a malformed request, a
// header too large, an unknown Expect, an unknown transfer coding, an
// unknown version), and OPTIONS *, carry the security headers like every page, once each.
func TestOwnAnswersCarryHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		code      int
	}{
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: pbem.test\r\n\r\n", 404},
		{"malformed", "GARBAGE\r\n\r\n", 400},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"header too large", "GET / HTTP/1.1\r\nHost: pbem.test\r\nX-Big: " + strings.Repeat("a", 2*maxHeaderBytes) + "\r\n\r\n", 431},
		{"unknown Expect", "GET /s/" + goodToken + " HTTP/1.1\r\nHost: pbem.test\r\nExpect: tea\r\n\r\n", 417},
		{"unknown transfer coding", "POST / HTTP/1.1\r\nHost: pbem.test\r\nTransfer-Encoding: tea\r\n\r\n", 501},
		{"unknown version", "GET / HTTP/2.0\r\nHost: pbem.test\r\n\r\n", 505},
		{"malformed after a page", pageRequest + "GARBAGE\r\n\r\n", 400},
		{"a page", pageRequest, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dialFrom(t, "127.0.0.1", startServer(t))
			if _, err := io.WriteString(c, tc.raw); err != nil {
				t.Fatal(err)
			}
			var res *http.Response
			for range strings.Count(tc.raw, "\r\n\r\n") {
				var err error
				if res, err = http.ReadResponse(c.r, nil); err != nil {
					t.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, res.Body); err != nil {
					t.Fatal(err)
				}
				checkHeaders(t, res)
				for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Cache-Control", "Referrer-Policy", "X-Frame-Options"} {
					if n := len(res.Header.Values(k)); n != 1 {
						t.Errorf("%d: %s %d times", res.StatusCode, k, n)
					}
				}
			}
			if res.StatusCode != tc.code {
				t.Errorf("status %d, want %d", res.StatusCode, tc.code)
			}
		})
	}
}

// TestClientKey: IPv4 clients count one by one, IPv6 ones by their /64.
func TestClientKey(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"192.0.2.1:80", "192.0.2.1"},
		{"[::ffff:192.0.2.1]:80", "192.0.2.1"},
		{"[2001:db8:1:2:3:4:5:6]:80", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:443", "2001:db8:1:3::/64"},
	} {
		a, err := net.ResolveTCPAddr("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := clientKey(a); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestConnLimit: the configured bound, but never more than half the
// process's descriptors.
func TestConnLimit(t *testing.T) {
	for _, tc := range []struct {
		want  int
		fds   uint64
		known bool
		limit int
	}{
		{1024, 20000, true, 1024},
		{1024, 1024, true, 512},
		{1024, 0, false, 1024},
		{1024, 1, true, 1},
		{1024, ^uint64(0), true, 1024}, // RLIM_INFINITY
	} {
		if got := connLimit(tc.want, tc.fds, tc.known); got != tc.limit {
			t.Errorf("connLimit(%d, %d, %v) = %d, want %d", tc.want, tc.fds, tc.known, got, tc.limit)
		}
	}
}
