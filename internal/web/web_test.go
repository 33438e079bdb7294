package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakePages has one page, for one token, with points 0..2.
type fakePages struct{ calls int }

const goodToken = "abcdefghijklmnopqrstuvwxyz"

func (f *fakePages) Page(_ context.Context, token string, at int) (string, error) {
	f.calls++
	if token != goodToken || at > 2 {
		return "", ErrNoPage
	}
	return "<!DOCTYPE html><p>the table at " + map[int]string{-1: "now", 0: "0", 1: "1", 2: "2"}[at] + "</p>", nil
}

func get(t testing.TB, h http.Handler, method, target, remote string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	if remote != "" {
		r.RemoteAddr = remote
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func body(t testing.TB, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRoutes: the page and its points answer 200 with the security
// headers; every address that is no page answers the same 404, with the
// same headers, whether its token is unknown, renewed, malformed or its
// path is no page at all.
func TestRoutes(t *testing.T) {
	s := New(&fakePages{}, WithRate(1000, time.Millisecond))
	res := get(t, s, "GET", "/s/"+goodToken, "")
	if res.StatusCode != 200 || !strings.Contains(body(t, res), "the table at now") {
		t.Fatalf("page: %d", res.StatusCode)
	}
	if res.Header.Get("Refresh") != "" {
		t.Error("the present page sends a Refresh header: its own <noscript> refresh is for a game going on only")
	}
	checkHeaders(t, res)
	res = get(t, s, "GET", "/s/"+goodToken+"?at=1", "")
	if res.StatusCode != 200 || !strings.Contains(body(t, res), "the table at 1") || res.Header.Get("Refresh") != "" {
		t.Fatalf("point 1: %d, refresh %q", res.StatusCode, res.Header.Get("Refresh"))
	}
	var want string
	for i, target := range []string{
		"/s/" + strings.Repeat("a", 26), // unknown
		"/s/" + goodToken + "?at=3",     // no such point
		"/s/" + goodToken + "?at=-1",
		"/s/" + goodToken + "?at=x",
		"/s/" + goodToken + "?at=9999999",
		"/s/" + strings.ToUpper(goodToken),
		"/s/" + goodToken + "/",
		"/s/short",
		"/", "/healthz", "/metrics", "/s/", "/x/" + goodToken,
	} {
		res := get(t, s, "GET", target, "")
		b := body(t, res)
		if res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", target, res.StatusCode)
		}
		checkHeaders(t, res)
		if i == 0 {
			want = b
		} else if b != want {
			t.Errorf("%s: a 404 unlike the others:\n%s\nwant\n%s", target, b, want)
		}
	}
	res = get(t, s, "POST", "/s/"+goodToken, "")
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", res.StatusCode)
	}
	res = get(t, s, "HEAD", "/s/"+goodToken, "")
	if res.StatusCode != 200 || body(t, res) != "" {
		t.Errorf("HEAD: %d", res.StatusCode)
	}
}

func checkHeaders(t *testing.T, res *http.Response) {
	t.Helper()
	for k, v := range map[string]string{
		"Referrer-Policy":         "no-referrer",
		"Content-Security-Policy": contentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Cache-Control":           "no-store",
	} {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self';") ||
		strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'unsafe-inline'") {
		t.Errorf("CSP %q allows other scripts than the server's own", csp)
	}
}

// TestRateLimit: an address past its burst is refused with 429 and costs
// the store nothing; another address is served; the bucket refills.
func TestRateLimit(t *testing.T) {
	now := time.Unix(0, 0)
	f := &fakePages{}
	s := New(f)
	s.limiter = newLimiter(3, time.Second, func() time.Time { return now })
	for i := range 3 {
		if res := get(t, s, "GET", "/s/"+goodToken, "192.0.2.1:1000"); res.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, res.StatusCode)
		}
	}
	res := get(t, s, "GET", "/s/"+goodToken, "192.0.2.1:1001")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("past the burst: %d", res.StatusCode)
	}
	if f.calls != 3 {
		t.Errorf("a refused request read the pages: %d calls", f.calls)
	}
	if res := get(t, s, "GET", "/s/"+goodToken, "192.0.2.2:1000"); res.StatusCode != 200 {
		t.Errorf("another address: %d", res.StatusCode)
	}
	now = now.Add(time.Second)
	if res := get(t, s, "GET", "/s/"+goodToken, "192.0.2.1:1000"); res.StatusCode != 200 {
		t.Errorf("after a second: %d", res.StatusCode)
	}
}

// TestLimiterBounded: a flood of addresses does not grow the limiter
// past maxClients.
func TestLimiterBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := newLimiter(2, time.Hour, func() time.Time { return now })
	for i := range maxClients + 100 {
		l.allow(strings.Repeat("x", i%7) + string(rune(i)))
	}
	if len(l.buckets) > maxClients {
		t.Fatalf("%d buckets", len(l.buckets))
	}
}

// TestServeLimits: the real server refuses a header past its bound and
// stops with its context.
func TestServeLimits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := newLocalListener()
	if err != nil {
		t.Fatal(err)
	}
	s := New(&fakePages{})
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/s/" + goodToken
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Big", strings.Repeat("a", 2*maxHeaderBytes))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a big header: %d", res.StatusCode)
	}
	res, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("page: %d", res.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
