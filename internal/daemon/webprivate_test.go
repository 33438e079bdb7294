package daemon

import (
	"context"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// pageToken is the page link of seat (store.PublicLink: the spectators')
// in game id.
func (w *world) pageToken(id int64, seat int) string {
	w.t.Helper()
	tok, err := w.st.LinkToken(context.Background(), id, seat)
	if err != nil {
		w.t.Fatalf("the link of seat %d: %v", seat, err)
	}
	return tok
}

// pageNow renders the page of token as it is now, and counts its points.
func (w *world) pageNow(token string) (string, int) {
	w.t.Helper()
	ctx := context.Background()
	html, err := w.svc.Page(ctx, token, -1)
	if err != nil {
		w.t.Fatal(err)
	}
	pd, err := w.svc.pageData(ctx, token, -1)
	if err != nil {
		w.t.Fatal(err)
	}
	return html, len(pd.Points)
}

// TestPagesHidePrivateUndo (issue 33, finding 3): a standing pass sent
// before one's turn is known to its sender alone, and so is its undo:
// the mails tell nobody else of either. The other seats' pages and the
// spectators' page must not either: not a point more in the history, no
// "taken back" sentence; they are the very pages they were before the
// pass. The sender's own page may tell him, as his mail did.
func TestPagesHidePrivateUndo(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	reply, id := w.startGame("felix", gamers...)
	w.send(gamers[0], reply[gamers[0]], "spectators on")
	for p := range gamers {
		w.send(gamers[p], reply[gamers[p]], w.legal(id, p))
	}
	bidder := w.table(id).game.Waiting()[0]
	later := (bidder + 2) % len(gamers)
	w.confirmOn(gamers[later]) // the test reads the answer to his pass
	type shown struct {
		html   string
		points int
	}
	pages := func() map[int]shown {
		out := map[int]shown{}
		for seat := engine.Public; seat < len(gamers); seat++ {
			link := seat
			if seat == engine.Public {
				link = store.PublicLink
			}
			html, n := w.pageNow(w.pageToken(id, link))
			out[seat] = shown{html, n}
		}
		return out
	}
	before := pages()
	n := map[string]int{}
	for _, p := range gamers {
		n[p] = len(w.inbox[p])
	}

	w.send(gamers[later], reply[gamers[later]], "pass")
	if a := w.answer(gamers[later]); !strings.Contains(a, "pbem will pass for you when the auction comes to you. Only you know this.") {
		t.Fatalf("the pass ahead of %s's turn is not a standing pass:\n%s", gamers[later], a)
	}
	during := pages()
	w.send(gamers[later], reply[gamers[later]], "undo")
	if a := w.answer(gamers[later]); !strings.Contains(a, "Taken back: pass. Nobody else could see anything of it, so nobody was asked.") {
		t.Fatalf("the undo's answer:\n%s", a)
	}
	for _, p := range gamers {
		if p != gamers[later] && len(w.inbox[p]) != n[p] {
			t.Fatalf("%s was mailed about a private pass or its undo: the pages have nothing to match", p)
		}
	}
	after := pages()

	for seat := engine.Public; seat < len(gamers); seat++ {
		if seat == later {
			continue
		}
		for when, got := range map[string]shown{"after the standing pass": during[seat], "after its undo": after[seat]} {
			if got.points != before[seat].points {
				t.Errorf("seat %d's page has %d points of history %s, %d before it", seat, got.points, when, before[seat].points)
			}
			if strings.Contains(strings.ToLower(got.html), "taken back") {
				t.Errorf("seat %d's page %s says a move was taken back", seat, when)
			}
			if got.html != before[seat].html {
				t.Errorf("seat %d's page %s is not the page before it", seat, when)
			}
		}
	}
	if after[later].points != before[later].points {
		t.Errorf("%s's own page has %d points after his private pass and its undo, %d before: neither is a move the table saw", gamers[later], after[later].points, before[later].points)
	}
}
