//go:build browser

// The live page in headless Chromium (chromedp): a seat's page follows
// a move of another seat without reloading, and the history's slider
// shows the point it is dragged to. It needs Chromium: go test -tags
// browser -run Browser ./internal/daemon/ (scripts/test installs it and
// runs it). Without Chromium it fails.

package daemon

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/internal/web"
)

// TestBrowserPageFollowsGame opens a seat's page in Chromium, marks the
// window, and has another seat move by mail: the page shows the move
// (a point more in its history, the move's words) without reloading
// (the mark is still there), by its event stream. Then the slider,
// dragged to the opening, shows it, again without reloading.
func TestBrowserPageFollowsGame(t *testing.T) {
	w := webWorld(t)
	players := gamers[:3]
	reply, id := w.startGame("felix", players...)
	mover := w.loaded(id).State.Waiting()[0]
	reader := (mover + 1) % len(players)
	srv := httptest.NewServer(web.New(w.svc.Pages(), web.WithRate(1000, time.Millisecond)))
	// Closed after the browser (cleanups run last first): Close waits for
	// every handler, and the page's stream ends when the browser goes.
	t.Cleanup(srv.Close)
	ctx := testlib.Chromium(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/s/"+w.pageToken(id, reader))); err != nil {
		t.Fatal(err)
	}
	// The mark, and the stream open: the game's changes have a waiter.
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.pbemMark = "not reloaded"; document.querySelectorAll("#pb-points > li").length`))
	if err != nil {
		t.Fatal(err)
	}
	if live, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("pb-main").dataset.live`)); err != nil || live != "yes" {
		t.Fatalf("the page of a game going on is not live: %q %v", live, err)
	}
	// The stream is open (live.js marks it when its headers come, which
	// the server sends once it watches the game).
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.documentElement.dataset.pbemStream === "open"`,
		chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the page's event stream did not open: %v", err)
	}
	if n := w.svc.changes.Waiting(id); n != 1 {
		t.Fatalf("%d streams wait on the game, want 1", n)
	}
	move := w.legal(id, mover)
	sent := time.Now()
	w.send(players[mover], reply[players[mover]], move)
	got, err := chromedp.Run(ctx, chromedp.Poll[string](
		`document.querySelectorAll("#pb-points > li").length > `+strconv.Itoa(before)+` && window.pbemMark === "not reloaded" && document.getElementById("pb-points").lastElementChild.textContent`,
		chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the page did not show %s's %q without reloading: %v", players[mover], move, err)
	}
	t.Logf("%s after the mail was handled, the page shows, without reloading: %s", time.Since(sent).Round(time.Millisecond), got)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("at"); s.value = 0; s.dispatchEvent(new Event("input")); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	label, err := chromedp.Run(ctx, chromedp.Poll[string](
		`document.getElementById("pb-main").dataset.at === "0" && window.pbemMark === "not reloaded" && location.search === "?at=0" && document.getElementById("pb-at-label").textContent`,
		chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the slider dragged to 0 did not show the opening without reloading: %v", err)
	}
	t.Logf("the slider at 0: %s", label)
}
