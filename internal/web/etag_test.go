package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// versionedPages is fakePages whose pages have versions: the version of
// a point is "vN" ("vnow" now), and changes with edits.
type versionedPages struct {
	fakePages
	edits int
}

func (v *versionedPages) VersionedPage(ctx context.Context, token string, at int) (string, string, error) {
	html, err := v.Page(ctx, token, at)
	if err != nil {
		return "", "", err
	}
	name := map[int]string{-1: "now", 0: "0", 1: "1", 2: "2"}[at]
	return html, "v" + name + "-" + string(rune('a'+v.edits)), nil
}

// TestETag: a page is sent with its version as a strong ETag and
// Cache-Control private, no-cache; asked for again with that ETag it is
// a 304 with no body; a wrong or stale ETag gets the page; 404s keep
// no-store.
func TestETag(t *testing.T) {
	t.Parallel()
	pages := &versionedPages{}
	s := New(pages, WithRate(1000, time.Millisecond))
	page := "/s/" + goodToken
	first := ask(s, http.MethodGet, page, "")
	if first.Code != http.StatusOK || first.Body.Len() == 0 {
		t.Fatalf("the page: %d", first.Code)
	}
	etag := first.Header().Get("ETag")
	if etag != `"vnow-a"` {
		t.Fatalf("ETag %q, want the page's version, quoted", etag)
	}
	if cc := first.Header().Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}
	for _, c := range []struct {
		name, method, target, ifNoneMatch string
		want                              int
	}{
		{"the same version", http.MethodGet, page, etag, http.StatusNotModified},
		{"HEAD", http.MethodHead, page, etag, http.StatusNotModified},
		{"among others", http.MethodGet, page, `"x", ` + etag + `, "y"`, http.StatusNotModified},
		{"weak", http.MethodGet, page, "W/" + etag, http.StatusNotModified},
		{"any", http.MethodGet, page, "*", http.StatusNotModified},
		{"wrong", http.MethodGet, page, `"vnow-b"`, http.StatusOK},
		{"unquoted", http.MethodGet, page, "vnow-a", http.StatusOK},
		{"another point's", http.MethodGet, page + "?at=1", etag, http.StatusOK},
		{"none", http.MethodGet, page, "", http.StatusOK},
	} {
		res := ask(s, c.method, c.target, c.ifNoneMatch)
		if res.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, res.Code, c.want)
			continue
		}
		if res.Header().Get("ETag") == "" || res.Header().Get("Cache-Control") != pageCacheControl {
			t.Errorf("%s: ETag %q, Cache-Control %q", c.name, res.Header().Get("ETag"), res.Header().Get("Cache-Control"))
		}
		switch {
		case c.want == http.StatusNotModified && res.Body.Len() != 0:
			t.Errorf("%s: a 304 with a body", c.name)
		case c.want == http.StatusOK && c.method == http.MethodGet && res.Body.Len() == 0:
			t.Errorf("%s: a 200 without the page", c.name)
		}
	}
	pages.edits++ // the game moved on: the browser's copy is stale
	if res := ask(s, http.MethodGet, page, etag); res.Code != http.StatusOK || res.Body.Len() == 0 || res.Header().Get("ETag") == etag {
		t.Errorf("a stale ETag: %d, ETag %q", res.Code, res.Header().Get("ETag"))
	}
	res := ask(s, http.MethodGet, "/s/"+goodToken+"?at=7", etag)
	if res.Code != http.StatusNotFound || res.Header().Get("Cache-Control") != "no-store" || res.Header().Get("ETag") != "" {
		t.Errorf("no page: %d, Cache-Control %q, ETag %q", res.Code, res.Header().Get("Cache-Control"), res.Header().Get("ETag"))
	}
}

// ask answers one request with If-None-Match: ifNoneMatch, unless "".
func ask(h http.Handler, method, target, ifNoneMatch string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	if ifNoneMatch != "" {
		r.Header.Set("If-None-Match", ifNoneMatch)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
