package daemon

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/webpage"
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
	html, err := w.svc.Pages().Page(ctx, token, -1)
	if err != nil {
		w.t.Fatal(err)
	}
	pd, err := w.svc.Pages().Data(ctx, token, -1)
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
	bidder := w.loaded(id).State.Waiting()[0]
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

var pageGames = flag.Int("pagegames", 1, "TestPropertyPagesShowWhatMailsTold: the whole random games of each kind it plays (scripts/test plays more)")

// TestPropertyPagesShowWhatMailsTold (issue 33, item 4) plays whole
// random games of Felix and Gracias by mail, the game open to
// spectators, with moves, standing orders sent ahead of one's turn
// (Felix), undos of both (taken back at once, or asked and answered at
// random) mixed in. It holds each page to what the mails told its
// reader, the stored events they are made of:
//   - after every mail, a page whose reader was told nothing new (no new
//     event he may see; for the spectators' page, none the whole table
//     may) is byte for byte the page it was;
//   - at the end, on every page at every point of its history: each
//     point's words are words the reader's mails told him (the
//     spectators': words told to the whole table); every page has the
//     spectators' points, which know of no private step; and no page
//     shows the words of an event meant for another seat alone.
//
// -pagegames=N plays N games of each kind. Whole games on one goroutine
// each: skipped under -race, as scripts/test runs it without.
func TestPropertyPagesShowWhatMailsTold(t *testing.T) {
	t.Parallel()
	skipUnderRace(t)
	var mu sync.Mutex
	played := map[string]pageStats{}
	t.Cleanup(func() {
		// The property means little if the games took nothing back,
		// and Felix's left no standing order nor took one back.
		for game, st := range played {
			if st.publicUndos == 0 || (game == "felix" && (st.private == 0 || st.privateUndos == 0)) {
				t.Errorf("%s: private steps %d, taken back at once %d, by vote %d: the check would prove little", game, st.private, st.privateUndos, st.publicUndos)
			}
		}
	})
	for _, tc := range []struct {
		game    string
		players []string
	}{
		{"felix", gamers},
		{"gracias", gamers[:3]},
	} {
		for seed := uint64(1); seed <= uint64(*pageGames); seed++ {
			t.Run(fmt.Sprintf("%s-seed%d", tc.game, seed), func(t *testing.T) {
				t.Parallel()
				pp := newPagePlay(t, tc.game, tc.players, seed)
				pp.playOut()
				pp.checkHistories()
				st := pp.stats()
				t.Logf("%d mails; %d private steps, %d taken back at once; %d undos asked, %d moves taken back by vote", pp.mails, st.private, st.privateUndos, pp.w.eventsOf(pp.id, EventUndoAsked), st.publicUndos)
				mu.Lock()
				defer mu.Unlock()
				sum := played[tc.game]
				played[tc.game] = pageStats{sum.private + st.private, sum.privateUndos + st.privateUndos, sum.publicUndos + st.publicUndos}
			})
		}
	}
}

// pagePlay is a game played by mail at random for the pages' property,
// with every page as it was after the last mail.
type pagePlay struct {
	t       *testing.T
	w       *world
	id      int64
	game    string
	players []string
	reply   map[string]string
	rng     *rand.Rand
	toks    map[int]string // the page links by seat; engine.Public: the spectators'
	shown   map[int]string // the pages at now, as they were after the last mail
	mails   int
}

func newPagePlay(t *testing.T, game string, players []string, seed uint64) *pagePlay {
	w := webWorld(t)
	reply, id := w.startGame(game, players...)
	w.send(players[0], reply[players[0]], "spectators on")
	pp := &pagePlay{t: t, w: w, id: id, game: game, players: players, reply: reply,
		rng: rand.New(rand.NewPCG(seed, 34)), toks: map[int]string{engine.Public: w.pageToken(id, store.PublicLink)}}
	for seat := range players {
		pp.toks[seat] = w.pageToken(id, seat)
	}
	pp.shown = pp.pages()
	return pp
}

// pages renders every page at now.
func (pp *pagePlay) pages() map[int]string {
	out := map[int]string{}
	for seat, tok := range pp.toks {
		html, err := pp.w.svc.Pages().Page(context.Background(), tok, -1)
		if err != nil {
			pp.t.Fatalf("seat %d's page: %v", seat, err)
		}
		out[seat] = html
	}
	return out
}

// events are the game's stored events after id since.
func (pp *pagePlay) events(since int64) []store.Event {
	evs, err := pp.w.st.Events(context.Background(), pp.id, since)
	if err != nil {
		pp.t.Fatal(err)
	}
	return evs
}

// send mails body from seat's player, then holds every page whose reader
// was told nothing new to the page it was.
func (pp *pagePlay) send(seat int, body string) {
	var last int64
	if evs := pp.events(0); len(evs) > 0 {
		last = evs[len(evs)-1].ID
	}
	pp.w.send(pp.players[seat], pp.reply[pp.players[seat]], body)
	pp.mails++
	news := pp.events(last)
	now := pp.pages()
	for reader, before := range pp.shown {
		if reader != seat && len(visible(news, reader)) == 0 && now[reader] != before {
			pp.t.Errorf("after %s's %q, which told seat %d nothing (%d new events), seat %d's page changed", pp.players[seat], body, reader, len(news), reader)
		}
	}
	pp.shown = now
}

// playOut plays the game to its end: the seat the game waits on moves,
// and now and then takes it back; in Felix a seat whose turn has not
// come leaves a standing order, and often takes it back at once.
func (pp *pagePlay) playOut() {
	for steps := 0; ; steps++ {
		if steps > 1500 {
			pp.t.Fatal("the game does not end")
		}
		tb := pp.w.loaded(pp.id)
		if tb.State.Result().Finished {
			return
		}
		waiting := tb.State.Waiting()
		p := waiting[0]
		if pp.game == "felix" && pp.rng.IntN(3) == 0 {
			if q := pp.rng.IntN(len(pp.players)); !slices.Contains(waiting, q) {
				pp.standingOrder(q)
				continue
			}
		}
		var cmds []string
		for _, o := range tb.State.Options(p) {
			cmds = append(cmds, o.Commands...)
		}
		pp.send(p, cmds[pp.rng.IntN(len(cmds))])
		if pp.rng.IntN(pp.undoOdds()) == 0 {
			pp.askUndo(p)
		}
	}
}

// undoOdds is one in how many moves its player asks to take back: in
// Gracias most moves bring a card to light and cannot be, so more often.
func (pp *pagePlay) undoOdds() int {
	if pp.game == "gracias" {
		return 2
	}
	return 4
}

// standingOrder has seat q, whose turn it is not, pass or bid up to a
// limit ahead of his turn (refused when the auction is not on, or he
// passed), and now and then take it back at once.
func (pp *pagePlay) standingOrder(q int) {
	order := "pass"
	if pp.rng.IntN(2) == 0 {
		order = fmt.Sprintf("bid up to %d", 1+pp.rng.IntN(20))
	}
	pp.send(q, order)
	if pp.rng.IntN(2) == 0 {
		pp.send(q, "undo")
	}
}

// askUndo has seat p ask to take his last move back, and the others
// answer at random, or not at all.
func (pp *pagePlay) askUndo(p int) {
	pp.send(p, "undo")
	for q := range pp.players {
		if q == p {
			continue
		}
		switch pp.rng.IntN(8) {
		case 0, 1, 2, 3, 4, 5:
			pp.send(q, "agree")
		case 6:
			pp.send(q, "refuse")
		}
	}
}

// pageStats counts what the game's log holds that the check is about.
type pageStats struct{ private, privateUndos, publicUndos int }

// stats counts the lines of the log its seat alone was told of (standing
// orders), and the commands taken back: at once, telling their player
// alone, or telling the table.
func (pp *pagePlay) stats() pageStats {
	var st pageStats
	bySeq := map[int64][]store.Event{}
	for _, e := range pp.events(0) {
		bySeq[e.Seq] = append(bySeq[e.Seq], e)
	}
	moves, err := pp.w.st.Moves(context.Background(), pp.id, 0)
	if err != nil {
		pp.t.Fatal(err)
	}
	for _, m := range moves {
		alone := len(bySeq[m.Seq]) > 0
		for _, e := range bySeq[m.Seq] {
			alone = alone && e.To == m.Seat
		}
		switch {
		case loaded.IsUndoLine(m.Command) && alone:
			st.privateUndos++
		case loaded.IsUndoLine(m.Command):
			st.publicUndos++
		case alone:
			st.private++
		}
	}
	return st
}

// checkHistories holds every page, at every point of its history, to
// what the mails told its reader.
func (pp *pagePlay) checkHistories() {
	ctx := context.Background()
	evs := pp.events(0)
	public, err := pp.w.svc.Pages().Data(ctx, pp.toks[engine.Public], -1)
	if err != nil {
		pp.t.Fatal(err)
	}
	for reader, tok := range pp.toks {
		told := pp.toldTexts(evs, reader)
		for at := 0; ; at++ {
			pd, err := pp.w.svc.Pages().Data(ctx, tok, at)
			if errors.Is(err, webpage.ErrNoPage) {
				if at != len(public.Points) {
					pp.t.Errorf("seat %d's page has %d points, the spectators' %d", reader, at, len(public.Points))
				}
				break
			}
			if err != nil {
				pp.t.Fatal(err)
			}
			if at > 0 {
				if rest := untold(pd.Points[at].Text, told); rest != "" {
					pp.t.Errorf("point %d of seat %d's page says %q, which no mail told it (%q)", at, reader, pd.Points[at].Text, rest)
				}
			}
			html, err := pp.w.svc.Pages().Page(ctx, tok, at)
			if err != nil {
				pp.t.Fatal(err)
			}
			for _, e := range evs {
				if e.To >= 0 && e.To != reader && !seenAs(evs, reader, e.Text) && strings.Contains(html, htmlText(e.Text)) {
					pp.t.Errorf("seat %d's page at point %d shows %q, told to seat %d alone", reader, at, e.Text, e.To)
				}
			}
		}
	}
}

// toldUpTo is the last event of the game seat's mails were written
// with (the outbox's SeenEvent): every event he may see up to it is one
// his mails told him.
func (pp *pagePlay) toldUpTo(seat int) int64 {
	var upTo int64
	for _, m := range pp.w.inbox[pp.players[seat]] {
		o, err := pp.w.st.OutgoingByMessageID(context.Background(), m.MessageID)
		if err != nil {
			pp.t.Fatal(err)
		}
		if o.GameID == pp.id && o.Seat == seat {
			upTo = max(upTo, o.SeenEvent)
		}
	}
	return upTo
}

// toldTexts are the words, on one line, of the events the mails told
// reader, the longest first; for the spectators, the events told to the
// whole table that some seat's mails told.
func (pp *pagePlay) toldTexts(evs []store.Event, reader int) []string {
	var upTo int64
	if reader == engine.Public {
		for seat := range pp.players {
			upTo = max(upTo, pp.toldUpTo(seat))
		}
	} else {
		upTo = pp.toldUpTo(reader)
	}
	var out []string
	for _, e := range evs {
		ev := engine.Event{To: e.To}
		if s := oneLine(e.Text); e.ID <= upTo && ev.VisibleTo(reader) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// untold is what is left of a point's words once every told sentence is
// taken out of them: "" when the mails told all of it.
func untold(point string, told []string) string {
	rest := oneLine(point)
	if rest == "" {
		return "(no words)"
	}
	for _, s := range told {
		rest = strings.ReplaceAll(rest, s, "")
	}
	return strings.TrimSpace(rest)
}

// seenAs reports whether reader may see an event that holds these very
// words: a standing order's are the same for every seat that gives one,
// and a Gracias take's words for one seat may begin another's.
func seenAs(evs []store.Event, reader int, text string) bool {
	for _, e := range visible(evs, reader) {
		if strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}
