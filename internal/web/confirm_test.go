package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeConfirm knows one confirmation link's token, and counts what was
// asked of it. Once confirmed, the token is no change's, as the turn
// loop's.
type fakeConfirm struct {
	forms, posts int
	done         bool
}

const goodConfirm = "abcdefghijklmnop"

func (f *fakeConfirm) AddressConfirmForm(_ context.Context, token string) (string, error) {
	f.forms++
	if token != goodConfirm || f.done {
		return "", ErrNoPage
	}
	return "<!DOCTYPE html><form method=post><button>Confirm</button></form>", nil
}

func (f *fakeConfirm) ConfirmAddressByLink(_ context.Context, token string) (string, error) {
	f.posts++
	if token != goodConfirm || f.done {
		return "", ErrNoPage
	}
	f.done = true
	return "<!DOCTYPE html><p>done</p>", nil
}

const confirmForm = confirmField + "=" + confirmValue

func confirmServer(f *fakeConfirm) *Server {
	return New(&fakePages{}, WithRate(1000, time.Millisecond), WithAddressConfirm(f))
}

// TestConfirmGetChangesNothing: a GET or HEAD of a confirmation link
// answers the page with the button and the security headers of every
// page, and confirms nothing.
func TestConfirmGetChangesNothing(t *testing.T) {
	t.Parallel()
	f := &fakeConfirm{}
	s := confirmServer(f)
	res := get(t, s, "GET", "/a/"+goodConfirm, "")
	if b := body(t, res); res.StatusCode != 200 || !strings.Contains(b, "<form method=post>") {
		t.Fatalf("GET: %d %s", res.StatusCode, b)
	}
	checkHeaders(t, res)
	res = get(t, s, "HEAD", "/a/"+goodConfirm, "")
	if res.StatusCode != 200 || body(t, res) != "" {
		t.Errorf("HEAD: %d", res.StatusCode)
	}
	if f.done || f.posts != 0 || f.forms != 2 {
		t.Errorf("after a GET and a HEAD: done %v, %d posts, %d forms", f.done, f.posts, f.forms)
	}
}

// TestConfirmPost: the page's form POSTed confirms and answers 200 with
// the page; a second POST is the 404 of every unknown address; a POST
// without the form's field, or with a body too big, is refused and
// confirms nothing.
func TestConfirmPost(t *testing.T) {
	t.Parallel()
	for _, bad := range []struct{ name, typ, body string }{
		{"no body", "", ""},
		{"another field", formType, "List-Unsubscribe=One-Click"},
		{"another value", formType, confirmField + "=yes"},
		{"not a form", "text/plain", confirmForm},
		{"multipart", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"change\"\r\n\r\nconfirmed\r\n--x--\r\n"},
		{"too big", formType, confirmForm + "&x=" + strings.Repeat("a", maxConfirmBody)},
	} {
		f := &fakeConfirm{}
		res := oneClick(t, confirmServer(f), "/a/"+goodConfirm, bad.typ, bad.body)
		if res.StatusCode != http.StatusBadRequest || f.done || f.posts != 0 {
			t.Errorf("%s: %d, done %v, %d posts", bad.name, res.StatusCode, f.done, f.posts)
		}
		checkHeaders(t, res)
	}

	f := &fakeConfirm{}
	s := confirmServer(f)
	res := oneClick(t, s, "/a/"+goodConfirm, formType, confirmForm)
	if b := body(t, res); res.StatusCode != 200 || !strings.Contains(b, "done") || !f.done {
		t.Fatalf("POST: %d %s, done %v", res.StatusCode, b, f.done)
	}
	checkHeaders(t, res)
	want := body(t, get(t, s, "GET", "/s/"+strings.Repeat("a", 26), ""))
	for _, res := range []*http.Response{oneClick(t, s, "/a/"+goodConfirm, formType, confirmForm), get(t, s, "GET", "/a/"+goodConfirm, "")} {
		if b := body(t, res); res.StatusCode != 404 || b != want {
			t.Errorf("after the POST: %d %s, want the 404 of every unknown address", res.StatusCode, b)
		}
	}
}

// TestConfirmNotFound: a token that is no change's, or has not a
// token's shape, answers the one 404 of every unknown address; only a
// well-shaped one reaches the turn loop; a server without confirmations
// has no /a/ at all.
func TestConfirmNotFound(t *testing.T) {
	t.Parallel()
	f := &fakeConfirm{}
	s := confirmServer(f)
	want := body(t, get(t, s, "GET", "/s/"+strings.Repeat("a", 26), ""))
	for _, target := range []string{
		"/a/bbcdefghijklmnop", // no one's
		"/a/" + strings.ToUpper(goodConfirm),
		"/a/" + goodConfirm + "/",
		"/a/" + goodConfirm + "?x=1",
		"/a/addr-" + goodConfirm,
		"/a/", "/a/" + goodConfirm + "q", "/a/abcdefghijklmno1", "/a/a%20b",
	} {
		for _, res := range []*http.Response{get(t, s, "GET", target, ""), oneClick(t, s, target, formType, confirmForm)} {
			if b := body(t, res); res.StatusCode != 404 || b != want {
				t.Errorf("%s: %d %s, want the 404 of every unknown address", target, res.StatusCode, b)
			}
			checkHeaders(t, res)
		}
	}
	if f.done {
		t.Error("a token that is no one's confirmed")
	}
	if f.forms+f.posts != 2*1 {
		t.Errorf("%d forms and %d posts asked: only the well-shaped token should reach the turn loop", f.forms, f.posts)
	}
	without := New(&fakePages{}, WithRate(1000, time.Millisecond))
	if res := oneClick(t, without, "/a/"+goodConfirm, formType, confirmForm); res.StatusCode != 404 {
		t.Errorf("a server without confirmations: %d", res.StatusCode)
	}
}

// TestConfirmMethods: any other method is refused with its Allow, and
// confirms nothing.
func TestConfirmMethods(t *testing.T) {
	t.Parallel()
	for _, m := range []string{"PUT", "DELETE", "PATCH", "OPTIONS"} {
		f := &fakeConfirm{}
		res := get(t, confirmServer(f), m, "/a/"+goodConfirm, "")
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD, POST" || f.done || f.forms+f.posts != 0 {
			t.Errorf("%s: %d, Allow %q, done %v", m, res.StatusCode, res.Header.Get("Allow"), f.done)
		}
		checkHeaders(t, res)
	}
}
