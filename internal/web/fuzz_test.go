package web

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRoutes sends the handler any path and query: it never panics,
// always sets the security headers, answers 200 only for the page's own
// token and points (and the confirmation link's token's page), and otherwise one of its fixed answers, whose 404 is
// the same for every address.
func FuzzRoutes(f *testing.F) {
	for _, seed := range []string{"/s/" + goodToken, "/s/" + goodToken + "?at=1", "/s/" + goodToken + "?at=-0", "/", "/s/",
		"/s/" + goodToken + "?at=1&at=2", "/s/%61bcdefghijklmnopqrstuvwxyz", "/s/" + goodToken + "?at=+1", "//s/" + goodToken, "/live.js", "/e/" + goodToken, "/live.js?x",
		"/a/" + goodConfirm, "/a/" + goodConfirm + "?x", "/a/addr-" + goodConfirm} {
		f.Add(seed)
	}
	s := New(&fakePages{}, WithRate(1<<30, time.Nanosecond), WithAddressConfirm(&fakeConfirm{}))
	notFound := get(f, s, "GET", "/nothing", "")
	var want bytes.Buffer
	want.ReadFrom(notFound.Body)
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		r, err := http.NewRequest("GET", "http://pbem.test"+target, nil)
		if err != nil {
			return // no request a client could send
		}
		r.RemoteAddr = "192.0.2.1:1"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		res := w.Result()
		if res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("Content-Security-Policy") != contentSecurityPolicy {
			t.Fatalf("%q: headers %v", target, res.Header)
		}
		switch res.StatusCode {
		case 200:
			if r.URL.Path != "/s/"+goodToken && r.URL.Path != "/a/"+goodConfirm && (r.URL.Path != "/live.js" || r.URL.RawQuery != "") {
				t.Fatalf("%q: a page for another path", target)
			}
		case 404:
			if w.Body.String() != want.String() {
				t.Fatalf("%q: a 404 unlike the others", target)
			}
		default:
			t.Fatalf("%q: %d", target, res.StatusCode)
		}
	})
}
