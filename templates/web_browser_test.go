//go:build browser

// The browser tests load the web pages in headless Chromium through
// chromedp at a phone's size, 375×812, in light and dark, and measure
// them: no page scrolls sideways, and a seat's options in the middle of
// a game are on the first screen. They need Chromium (Debian's chromium
// package): go test -tags browser -run Browser ./templates/ (scripts/test
// installs it and runs them). Without Chromium they fail.

package templates

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/pbem/pbem/internal/testlib"
)

// The phone the pages are measured at.
const (
	phoneWidth  = 375
	phoneHeight = 812
)

// phone sets the viewport to the phone's and the colour scheme.
func phone(dark bool) chromedp.Action[chromedp.Void] {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	return chromedp.Steps(
		chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulatePortrait),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}),
	)
}

// layout is what the browser measures of a page.
type layout struct {
	ScrollWidth int     `json:"scrollWidth"`
	Wide        string  `json:"wide"`       // the first element past the right edge, if any
	OptionsEnd  float64 `json:"optionsEnd"` // the bottom of the last option, 0 if none
	Options     int     `json:"options"`
	ScoresEnd   float64 `json:"scoresEnd"` // the bottom of the final scores, 0 if none
}

// measure is the script that measures a page: the document's scroll
// width, the widest element, and where the options and final scores end.
const measure = `(() => {
  const de = document.documentElement;
  let wide = "", right = 0;
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.right > right) { right = r.right; }
    if (!wide && r.right > 375.5) { wide = e.tagName + " " + (e.textContent || "").trim().slice(0, 40) + " right=" + Math.round(r.right); }
  }
  wide += " innerWidth=" + innerWidth + " maxRight=" + Math.round(right);
  const opts = [...document.querySelectorAll("#pb-todo a.pb-tap, #pb-todo code.pb-code")];
  const scores = document.getElementById("pb-end");
  return {
    scrollWidth: de.scrollWidth, wide: wide, options: opts.length,
    optionsEnd: opts.length ? Math.max(...opts.map(e => e.getBoundingClientRect().bottom + scrollY)) : 0,
    scoresEnd: scores ? scores.getBoundingClientRect().bottom + scrollY : 0,
  };
})()`

// TestBrowserPageFitsPhone loads each page of webCases at 375×812 in
// light and dark: none is wider than the phone, a seat's options in the
// middle of a game end within the first screen, and so do the final
// scores at the end.
func TestBrowserPageFitsPhone(t *testing.T) {
	r := newRenderer(t)
	pages := map[string]string{}
	for _, c := range webCases {
		pages["/"+c.name] = webCasePage(t, r, c)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, pages[req.URL.Path])
	}))
	defer srv.Close()
	ctx := testlib.Chromium(t)
	for _, c := range webCases {
		for _, dark := range []bool{false, true} {
			name := c.name
			if dark {
				name += "-dark"
			}
			t.Run(name, func(t *testing.T) {
				if err := chromedp.Do(ctx, phone(dark), chromedp.Navigate(srv.URL+"/"+c.name)); err != nil {
					t.Fatal(err)
				}
				l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %s; scroll width %d, options %d ending at %.0f, final scores ending at %.0f", name, l.Wide, l.ScrollWidth, l.Options, l.OptionsEnd, l.ScoresEnd)
				if l.ScrollWidth > phoneWidth {
					t.Errorf("the page is %d px wide on a %d px phone: %s", l.ScrollWidth, phoneWidth, l.Wide)
				}
				switch {
				case c.mid() && l.Options == 0:
					t.Errorf("the page offers no option")
				case c.mid() && l.OptionsEnd > phoneHeight:
					t.Errorf("the options end at %.0f px, below the first screen (%d px)", l.OptionsEnd, phoneHeight)
				case c.moves < 0 && (l.ScoresEnd == 0 || l.ScoresEnd > phoneHeight):
					t.Errorf("the final scores end at %.0f px, not on the first screen (%d px)", l.ScoresEnd, phoneHeight)
				}
			})
		}
	}
}
