package web

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeCalendars knows one feed token, and counts the feeds drawn.
type fakeCalendars struct {
	calls int
	fail  error // returned for the good token when set
}

const goodFeed = "zyxwvutsrqponmlkjihgfedcba"

func (f *fakeCalendars) Calendar(_ context.Context, token string) ([]byte, error) {
	f.calls++
	if token != goodFeed {
		return nil, ErrNoPage
	}
	if f.fail != nil {
		return nil, f.fail
	}
	return []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"), nil
}

// TestCalendarFeed: /c/TOKEN.ics answers the feed as text/calendar with
// the security headers of every page (no-store among them); HEAD
// answers its headers; any other method is refused; an unknown,
// malformed or queried token, or a feed without WithCalendar, is the
// one 404 of every unknown address, and a malformed one costs the
// store nothing.
func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	f := &fakeCalendars{}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithCalendar(f))
	res := get(t, s, "GET", "/c/"+goodFeed+".ics", "")
	if b := body(t, res); res.StatusCode != 200 || !strings.HasPrefix(b, "BEGIN:VCALENDAR\r\n") {
		t.Fatalf("GET: %d %q", res.StatusCode, b)
	}
	if got := res.Header.Get("Content-Type"); got != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", got)
	}
	checkHeaders(t, res)
	res = get(t, s, "HEAD", "/c/"+goodFeed+".ics", "")
	if res.StatusCode != 200 || body(t, res) != "" || res.Header.Get("Content-Length") == "0" {
		t.Errorf("HEAD: %d, length %s", res.StatusCode, res.Header.Get("Content-Length"))
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		res := get(t, s, m, "/c/"+goodFeed+".ics", "")
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d, Allow %q", m, res.StatusCode, res.Header.Get("Allow"))
		}
	}
	notFound := body(t, get(t, s, "GET", "/s/"+strings.Repeat("a", 26), ""))
	calls := f.calls
	for _, target := range []string{
		"/c/" + goodFeed, // no .ics
		"/c/" + goodFeed + ".ics?x=1",
		"/c/" + strings.ToUpper(goodFeed) + ".ics",
		"/c/" + goodFeed + ".ics/",
		"/c/short.ics", "/c/", "/c/.ics",
	} {
		res := get(t, s, "GET", target, "")
		if b := body(t, res); res.StatusCode != 404 || b != notFound {
			t.Errorf("%s: %d, want the one 404", target, res.StatusCode)
		}
	}
	if f.calls != calls {
		t.Errorf("malformed feed addresses read the store %d times", f.calls-calls)
	}
	res = get(t, s, "GET", "/c/"+strings.Repeat("b", 26)+".ics", "")
	if b := body(t, res); res.StatusCode != 404 || b != notFound {
		t.Errorf("an unknown token: %d", res.StatusCode)
	}
	checkHeaders(t, res)
	// The page token is not a feed's, nor the feed token a page's.
	if res := get(t, s, "GET", "/c/"+goodToken+".ics", ""); res.StatusCode != 404 {
		t.Errorf("a page token as a feed: %d", res.StatusCode)
	}
	if res := get(t, s, "GET", "/s/"+goodFeed, ""); res.StatusCode != 404 {
		t.Errorf("a feed token as a page: %d", res.StatusCode)
	}
	without := New(&fakePages{}, WithRate(1000, time.Millisecond))
	if res := get(t, without, "GET", "/c/"+goodFeed+".ics", ""); res.StatusCode != 404 {
		t.Errorf("without WithCalendar: %d", res.StatusCode)
	}
}

// TestCalendarFeedErrorLog: a feed that cannot be drawn answers 500, and
// the log says why without the token.
func TestCalendarFeedErrorLog(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	f := &fakeCalendars{fail: errors.New("store: calendar feed: disk on fire")}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithCalendar(f),
		WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	res := get(t, s, "GET", "/c/"+goodFeed+".ics", "")
	if res.StatusCode != 500 {
		t.Errorf("a failing feed: %d, want 500", res.StatusCode)
	}
	if !strings.Contains(log.String(), "disk on fire") || strings.Contains(log.String(), goodFeed) {
		t.Errorf("the log:\n%s", log.String())
	}
}
