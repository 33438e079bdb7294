package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeUnsub knows one one-click token, and counts what was asked of it.
type fakeUnsub struct {
	forms, posts int
	off          bool
}

const goodUnsub = "12-1-abcdefghijklmnopqrstuvwxyz"

func (f *fakeUnsub) UnsubscribeForm(_ context.Context, token string) (string, error) {
	f.forms++
	if token != goodUnsub {
		return "", ErrNoPage
	}
	return "<!DOCTYPE html><form method=post><button>off</button></form>", nil
}

func (f *fakeUnsub) Unsubscribe(_ context.Context, token string) (string, error) {
	f.posts++
	if token != goodUnsub {
		return "", ErrNoPage
	}
	f.off = true
	return "<!DOCTYPE html><p>done</p>", nil
}

// oneClick is RFC 8058's POST, with its body as contentType says.
func oneClick(t testing.TB, h http.Handler, target, contentType, body string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("POST", target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

const formType = "application/x-www-form-urlencoded"

// TestUnsubscribeGetChangesNothing: a GET or HEAD of a one-click address
// answers the page with the button and the security headers of every
// page, and unsubscribes no one.
func TestUnsubscribeGetChangesNothing(t *testing.T) {
	t.Parallel()
	f := &fakeUnsub{}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
	res := get(t, s, "GET", "/u/"+goodUnsub, "")
	if b := body(t, res); res.StatusCode != 200 || !strings.Contains(b, "<form method=post>") {
		t.Fatalf("GET: %d %s", res.StatusCode, b)
	}
	checkHeaders(t, res)
	res = get(t, s, "HEAD", "/u/"+goodUnsub, "")
	if res.StatusCode != 200 || body(t, res) != "" {
		t.Errorf("HEAD: %d", res.StatusCode)
	}
	if f.off || f.posts != 0 || f.forms != 2 {
		t.Errorf("after a GET and a HEAD: off %v, %d posts, %d forms", f.off, f.posts, f.forms)
	}
}

// TestUnsubscribePost: RFC 8058's POST, URL-encoded or multipart, turns
// the mail off and answers 200 with the page; doing it again answers the
// same; a POST without the one-click field, or with a body too big, is
// refused and changes nothing.
func TestUnsubscribePost(t *testing.T) {
	t.Parallel()
	for _, bad := range []struct{ name, typ, body string }{
		{"no body", "", ""},
		{"another field", formType, "unsubscribe=yes"},
		{"another value", formType, "List-Unsubscribe=Two-Clicks"},
		{"not a form", "text/plain", "List-Unsubscribe=One-Click"},
		{"too big", formType, "List-Unsubscribe=One-Click&x=" + strings.Repeat("a", maxUnsubscribeBody)},
	} {
		f := &fakeUnsub{}
		s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
		res := oneClick(t, s, "/u/"+goodUnsub, bad.typ, bad.body)
		if res.StatusCode != http.StatusBadRequest || f.off || f.posts != 0 {
			t.Errorf("%s: %d, off %v, %d posts", bad.name, res.StatusCode, f.off, f.posts)
		}
		checkHeaders(t, res)
	}

	f := &fakeUnsub{}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
	for i := range 2 {
		res := oneClick(t, s, "/u/"+goodUnsub, formType, "List-Unsubscribe=One-Click")
		if b := body(t, res); res.StatusCode != 200 || !strings.Contains(b, "done") || !f.off {
			t.Fatalf("POST %d: %d %s, off %v", i, res.StatusCode, b, f.off)
		}
		checkHeaders(t, res)
	}

	f = &fakeUnsub{}
	s = New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	if err := mw.WriteField("List-Unsubscribe", "One-Click"); err != nil {
		t.Fatal(err)
	}
	mw.Close()
	if res := oneClick(t, s, "/u/"+goodUnsub, mw.FormDataContentType(), mp.String()); res.StatusCode != 200 || !f.off {
		t.Errorf("multipart POST: %d, off %v", res.StatusCode, f.off)
	}
}

// TestUnsubscribeNotFound: a token that is no one's, or has not a
// token's shape, answers the one 404 of every unknown address and
// unsubscribes no one; a server without unsubscribing has no /u/ at all.
func TestUnsubscribeNotFound(t *testing.T) {
	t.Parallel()
	f := &fakeUnsub{}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
	want := body(t, get(t, s, "GET", "/s/"+strings.Repeat("a", 26), ""))
	for _, target := range []string{
		"/u/12-1-bbcdefghijklmnopqrstuvwxyz", // no one's
		"/u/" + strings.ToUpper(goodUnsub),
		"/u/" + goodUnsub + "/",
		"/u/" + goodUnsub + "?x=1",
		"/u/", "/u/" + strings.Repeat("1", maxUnsubscribeToken+1), "/u/a%20b",
	} {
		for _, res := range []*http.Response{get(t, s, "GET", target, ""), oneClick(t, s, target, formType, "List-Unsubscribe=One-Click")} {
			if b := body(t, res); res.StatusCode != 404 || b != want {
				t.Errorf("%s: %d %s, want the 404 of every unknown address", target, res.StatusCode, b)
			}
			checkHeaders(t, res)
		}
	}
	if f.off {
		t.Error("a token that is no one's unsubscribed")
	}
	if f.forms+f.posts != 2*1 {
		t.Errorf("%d forms and %d posts asked: only the well-shaped token should reach the turn loop", f.forms, f.posts)
	}
	without := New(&fakePages{}, WithRate(1000, time.Millisecond))
	if res := oneClick(t, without, "/u/"+goodUnsub, formType, "List-Unsubscribe=One-Click"); res.StatusCode != 404 {
		t.Errorf("a server without unsubscribing: %d", res.StatusCode)
	}
}

// TestUnsubscribeMethods: what is neither a read nor a POST is not
// allowed, says what is, and changes nothing.
func TestUnsubscribeMethods(t *testing.T) {
	t.Parallel()
	f := &fakeUnsub{}
	s := New(&fakePages{}, WithRate(1000, time.Millisecond), WithUnsubscribe(f))
	for _, m := range []string{"PUT", "DELETE", "PATCH", "OPTIONS"} {
		res := get(t, s, m, "/u/"+goodUnsub, "")
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD, POST" {
			t.Errorf("%s: %d, Allow %q", m, res.StatusCode, res.Header.Get("Allow"))
		}
		checkHeaders(t, res)
	}
	if f.off || f.posts+f.forms != 0 {
		t.Errorf("other methods reached the turn loop: off %v, %d posts, %d forms", f.off, f.posts, f.forms)
	}
}

// TestUnsubscribeRateLimited: a one-click POST is counted by the rate
// limit as every request is: past the burst it is refused and does
// nothing.
func TestUnsubscribeRateLimited(t *testing.T) {
	t.Parallel()
	f := &fakeUnsub{}
	s := New(&fakePages{}, WithRate(1, time.Hour), WithUnsubscribe(f))
	if res := get(t, s, "GET", "/u/"+goodUnsub, ""); res.StatusCode != 200 {
		t.Fatalf("GET: %d", res.StatusCode)
	}
	if res := oneClick(t, s, "/u/"+goodUnsub, formType, "List-Unsubscribe=One-Click"); res.StatusCode != http.StatusTooManyRequests || f.off {
		t.Errorf("POST past the burst: %d, off %v", res.StatusCode, f.off)
	}
}
