package web

import (
	"context"
	"net/http"
	"strings"
)

// Versioned is what a Pages may also do, for pages a browser asks for
// again cheaply: the page with its version (Live's Version, for any
// point), which the server sends as the page's ETag. A page whose
// version is the one the browser holds (If-None-Match) is answered 304
// Not Modified, with no body.
type Versioned interface {
	VersionedPage(ctx context.Context, token string, at int) (html, version string, err error)
}

// pageCacheControl is the Cache-Control of a page and of its 304 (every
// other answer keeps no-store, securityHeaders):
//   - private: no shared cache (a proxy, a CDN) may keep it: a seat's
//     page is that seat's hidden information, at an address that is its
//     secret;
//   - no-cache: the browser keeps it but asks again before each use,
//     with its ETag, since a game going on changes at any moment: it
//     never shows a table that is no longer the game's, and an unchanged
//     page costs a 304 and no body. (must-revalidate says less: it only
//     binds a copy once stale, and no-cache makes every copy so.)
const pageCacheControl = "private, no-cache"

// pageOf is the page of token at point at, and its ETag ("" when the
// pages have no versions).
func (s *Server) pageOf(ctx context.Context, token string, at int) (page, etag string, err error) {
	v, ok := s.pages.(Versioned)
	if !ok {
		page, err = s.pages.Page(ctx, token, at)
		return page, "", err
	}
	page, version, err := v.VersionedPage(ctx, token, at)
	if err != nil || version == "" {
		return page, "", err
	}
	return page, `"` + version + `"`, nil
}

// notModified reports whether a request's If-None-Match names etag (a
// strong ETag): the browser holds the page already. As RFC 9110 says
// for If-None-Match, the comparison is weak (W/"v" names "v"), and "*"
// names any page there is.
func notModified(r *http.Request, etag string) bool {
	for _, field := range r.Header.Values("If-None-Match") {
		for _, tag := range strings.Split(field, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}
