package webpage_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/internal/webpage/webpagetest"
)

var (
	fourPlayers  = []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	threePlayers = fourPlayers[:3]
)

// seatsOf are the seats of g, engine.Public (the spectators') first.
func seatsOf(g webpagetest.Game) []int {
	seats := []int{engine.Public}
	for seat := range g.Players {
		seats = append(seats, seat)
	}
	return seats
}

// pagesAt draws the page of token at each of points (-1: now) with
// pages; a point the game does not have is left out.
func pagesAt(t *testing.T, pages *webpage.Pages, token string, points ...int) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, at := range points {
		html, err := pages.Page(context.Background(), token, at)
		if errors.Is(err, webpage.ErrNoPage) {
			continue
		}
		if err != nil {
			t.Fatalf("page at %d: %v", at, err)
		}
		out[at] = html
	}
	return out
}

// everyPoint is now and every point of token's page.
func everyPoint(t *testing.T, pages *webpage.Pages, token string) []int {
	t.Helper()
	p, err := pages.Data(context.Background(), token, -1)
	if err != nil {
		t.Fatal(err)
	}
	points := []int{-1}
	for at := range p.Points {
		points = append(points, at)
	}
	return append(points, len(p.Points)) // one past the last: no page, for both
}

// sameAsFresh checks that every seat's page at points is, drawn twice by
// cached (the second time from what it kept), byte for byte the page
// fresh draws, which keeps nothing; points nil is every point.
func sameAsFresh(t *testing.T, w *webpagetest.World, g webpagetest.Game, cached, fresh *webpage.Pages, points []int, when string) {
	t.Helper()
	for _, seat := range seatsOf(g) {
		tok := w.Token(g.ID, seat)
		at := points
		if at == nil {
			at = everyPoint(t, fresh, tok)
		}
		want := pagesAt(t, fresh, tok, at...)
		for round := range 2 {
			got := pagesAt(t, cached, tok, at...)
			if len(got) != len(want) {
				t.Fatalf("%s: seat %d has %d pages kept, %d fresh", when, seat, len(got), len(want))
			}
			for n, html := range want {
				if got[n] != html {
					t.Fatalf("%s: seat %d's page at %d (drawn %d times) is not the fresh page", when, seat, n, round+1)
				}
			}
		}
	}
}

// TestCachedPageIsFreshPage: on random games of Felix and Gracias, every
// seat's and the spectators' page, at every point and now, is byte for
// byte what a Pages that keeps nothing draws, after every few moves of
// the game (each a commit that must make the kept pages stale), after a
// player changes his language, and at the end.
func TestCachedPageIsFreshPage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind    string
		players []string
	}{
		{"felix", fourPlayers},
		{"gracias", threePlayers},
	} {
		t.Run(c.kind, func(t *testing.T) {
			t.Parallel()
			w := webpagetest.Open(t)
			g := w.Start(c.kind, c.players...)
			cached, fresh := w.Pages(0, 0), w.Pages(-1, -1)
			rng := rand.New(rand.NewPCG(7, 40))
			for step := 1; w.Step(g, rng); step++ {
				if step == 6 {
					w.Send(g.Players[1], w.ReplyAddress(g.ID, 1), "sprache deutsch")
				}
				if step%5 == 0 {
					sameAsFresh(t, w, g, cached, fresh, []int{-1, 0, 1, step / 4}, fmt.Sprintf("after step %d", step))
				}
			}
			sameAsFresh(t, w, g, cached, fresh, nil, "at the end")
		})
	}
}

// TestPageOfItsSeatOnly: with every seat's and the spectators' pages
// kept by one Pages, each token still gets its own seat's page: the
// fresh one, naming its own reader and no other, and unlike every other
// seat's; the spectators' page names no reader and shows no hand.
func TestPageOfItsSeatOnly(t *testing.T) {
	t.Parallel()
	w := webpagetest.Open(t)
	g := w.Start("felix", fourPlayers...)
	rng := rand.New(rand.NewPCG(3, 40))
	for range 20 {
		w.Step(g, rng)
	}
	cached, fresh := w.Pages(0, 0), w.Pages(-1, -1)
	seats := seatsOf(g)
	for _, i := range rng.Perm(len(seats)) { // kept in a random order
		pagesAt(t, cached, w.Token(g.ID, seats[i]), -1, 0, 3)
	}
	names := w.Loaded(g.ID).Names
	got := map[int]string{}
	for _, seat := range seats {
		tok := w.Token(g.ID, seat)
		want := pagesAt(t, fresh, tok, -1, 0, 3)
		kept := pagesAt(t, cached, tok, -1, 0, 3)
		for at := range want {
			if kept[at] != want[at] {
				t.Errorf("seat %d at %d: the page kept is not the seat's own", seat, at)
			}
		}
		got[seat] = kept[-1]
		for other, name := range names {
			sees := strings.Contains(got[seat], "The table as "+name+" sees it")
			if sees != (other == seat) {
				t.Errorf("seat %d's page names %s as its reader: %v", seat, name, sees)
			}
		}
	}
	if strings.Contains(got[engine.Public], "Hand:") {
		t.Error("the spectators' page shows a hand")
	}
	for _, a := range seats {
		for _, b := range seats {
			if a < b && got[a] == got[b] {
				t.Errorf("seats %d and %d have the same page", a, b)
			}
		}
	}
}

// TestAnotherNodesCommitMakesPagesStale: a move, and a player's change
// of language, made by another node on the same store (a second store
// and service at the same database, which this node's Changes never
// hears of) are on this node's kept pages at once.
func TestAnotherNodesCommitMakesPagesStale(t *testing.T) {
	t.Parallel()
	path := webpagetest.Database(t)
	here, there := webpagetest.OpenAt(t, path), webpagetest.OpenAt(t, path)
	g := here.Start("felix", fourPlayers...)
	rng := rand.New(rand.NewPCG(5, 40))
	for range 5 {
		here.Step(g, rng)
	}
	cached, fresh := here.Pages(0, 0), here.Pages(-1, -1)
	before := map[int]string{}
	for _, seat := range seatsOf(g) {
		before[seat] = pagesAt(t, cached, here.Token(g.ID, seat), -1)[-1]
	}
	there.Step(g, rng)
	sameAsFresh(t, here, g, cached, fresh, []int{-1, 0}, "after the other node's move")
	if pagesAt(t, cached, here.Token(g.ID, engine.Public), -1)[-1] == before[engine.Public] {
		t.Error("the spectators' page did not change with a move")
	}
	bob := pagesAt(t, cached, here.Token(g.ID, 1), -1)[-1]
	there.Send(g.Players[1], there.ReplyAddress(g.ID, 1), "sprache deutsch")
	sameAsFresh(t, here, g, cached, fresh, []int{-1, 0}, "after the other node's change of language")
	if pagesAt(t, cached, here.Token(g.ID, 1), -1)[-1] == bob {
		t.Error("bob's page did not change with his language")
	}
}

// TestClockPageIsFreshPage: a time bank's page, whose clocks run, is at
// each moment the page drawn afresh at that moment; its past points do
// not change with the clock.
func TestClockPageIsFreshPage(t *testing.T) {
	t.Parallel()
	w := webpagetest.Open(t)
	g := w.StartWith("felix", "clock 2d+12h max 5d", threePlayers...)
	w.Step(g, rand.New(rand.NewPCG(1, 40)))
	cached, fresh := w.Pages(0, 0), w.Pages(-1, -1)
	tok := w.Token(g.ID, 1)
	first := pagesAt(t, cached, tok, -1, 0)
	sameAsFresh(t, w, g, cached, fresh, []int{-1, 0}, "at 10:00")
	w.Advance(5 * time.Hour)
	sameAsFresh(t, w, g, cached, fresh, []int{-1, 0}, "at 15:00")
	later := pagesAt(t, cached, tok, -1, 0)
	if later[-1] == first[-1] {
		t.Error("the present page did not change as the clocks ran")
	}
	if later[0] != first[0] {
		t.Error("a past point changed as the clocks ran")
	}
}

// TestOneDrawingPerChange: readers of one page, and its event streams'
// versions, are served the page drawn once (the very string kept) until
// the game changes; then it is drawn once again.
func TestOneDrawingPerChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webpagetest.Open(t)
	g := w.Start("felix", fourPlayers...)
	pages := w.Pages(0, 0)
	tok := w.Token(g.ID, 2)
	drawnOnce := func(when string) string {
		t.Helper()
		first, v, err := pages.VersionedPage(ctx, tok, -1)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			html, err := pages.Page(ctx, tok, -1)
			if err != nil {
				t.Fatal(err)
			}
			if unsafe.StringData(html) != unsafe.StringData(first) {
				t.Fatalf("%s: a reader's page was drawn again", when)
			}
			if version, err := pages.Version(ctx, tok); err != nil || version != v {
				t.Fatalf("%s: version %q (%v), want %q", when, version, err, v)
			}
		}
		return first
	}
	before := drawnOnce("at the start")
	w.Step(g, rand.New(rand.NewPCG(1, 40)))
	if after := drawnOnce("after a move"); after == before {
		t.Error("the page did not change with a move")
	}
}

// TestCacheBoundHolds: pages kept within a budget of a few pages, and
// one game's replay, stay within it however many pages of how many
// games are drawn, and are still the fresh pages.
func TestCacheBoundHolds(t *testing.T) {
	t.Parallel()
	const budget = 100_000 // three or four pages of Felix
	w := webpagetest.Open(t)
	rng := rand.New(rand.NewPCG(9, 40))
	var gs []webpagetest.Game
	for range 2 {
		g := w.Start("felix", fourPlayers...)
		for range 12 {
			w.Step(g, rng)
		}
		gs = append(gs, g)
	}
	cached, fresh := w.Pages(budget, 1), w.Pages(-1, -1)
	for round := range 2 {
		for _, g := range gs {
			sameAsFresh(t, w, g, cached, fresh, []int{-1, 0, 2}, fmt.Sprintf("round %d, game %d", round, g.ID))
			used, n, games := cached.CacheUsed()
			if used > budget || games > 1 {
				t.Fatalf("%d bytes in %d pages and %d games kept, over a budget of %d bytes and 1 game", used, n, games, budget)
			}
			if n == 0 || games == 0 {
				t.Fatalf("nothing kept: %d pages, %d games", n, games)
			}
		}
	}
}
