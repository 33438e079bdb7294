package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
)

var (
	pageLink     = regexp.MustCompile(`Your table on the web, with the whole game:\s+https://web\.pbem\.test/s/([a-z2-7]{26})`)
	pageLinkHTML = regexp.MustCompile(`<a href="https://web\.pbem\.test/s/([a-z2-7]{26})">Your table on the web</a>`)
	publicLink   = regexp.MustCompile(`https://web\.pbem\.test/s/([a-z2-7]{26}) \(spectators off`)
)

// webWorld is a world whose mails link the seats' pages.
func webWorld(t *testing.T) *world {
	return newWorldConfig(t, func(c *Config) { c.Limits = unlimited; c.WebURL = "https://web.pbem.test" })
}

// linkIn finds the page link in a mail, checking that the text and the
// HTML part carry the same one.
func linkIn(t *testing.T, m received) string {
	t.Helper()
	text := pageLink.FindStringSubmatch(m.Text)
	html := pageLinkHTML.FindStringSubmatch(m.HTML)
	if text == nil || html == nil || text[1] != html[1] {
		t.Fatalf("the mail does not link the seat's page in both parts:\n%s", m.Text)
	}
	return text[1]
}

// TestSeatPages: every game mail links its seat's page; the page's
// token is not the seat's mail token and shows the seat's own table;
// `link new` gives a new link and the old one leads nowhere; only the
// creator opens the public page, which shows no seat's hand; no mail
// links a page when pbem serves none; the log holds no link token.
func TestSeatPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, id := w.startGame("felix", alice, bob, carol)
	tok := linkIn(t, w.last(bob))
	if strings.Contains(reply[bob], tok) {
		t.Fatal("the page's token is the mail token")
	}
	page, err := w.svc.Pages().Page(ctx, tok, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The table as bob sees it", "Hand:", "The whole game"} {
		if !strings.Contains(page, want) {
			t.Errorf("bob's page lacks %q", want)
		}
	}
	if _, err := w.svc.Pages().Page(ctx, strings.Repeat("a", 26), -1); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("an unknown token: %v", err)
	}
	if _, err := w.svc.Pages().Page(ctx, tok, 99); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("a point the game does not have: %v", err)
	}

	w.send(bob, reply[bob], "link new")
	m := w.last(bob)
	if !strings.Contains(m.Text, "new address") {
		t.Errorf("link new's answer:\n%s", m.Text)
	}
	renewed := linkIn(t, m)
	if renewed == tok {
		t.Fatal("link new kept the link")
	}
	if _, err := w.svc.Pages().Page(ctx, tok, -1); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("the old link still shows the page: %v", err)
	}
	if _, err := w.svc.Pages().Page(ctx, renewed, -1); err != nil {
		t.Errorf("the new link: %v", err)
	}

	w.send(bob, reply[bob], "spectators on")
	if !strings.Contains(w.last(bob).Text, "Only the player who started this game") {
		t.Errorf("bob opened alice's game:\n%s", w.last(bob).Text)
	}
	if _, err := w.st.LinkToken(ctx, id, store.PublicLink); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the game is open to spectators: %v", err)
	}
	w.send(alice, reply[alice], "spectators on")
	pubm := publicLink.FindStringSubmatch(strings.Join(strings.Fields(w.last(alice).Text), " "))
	if pubm == nil {
		t.Fatalf("spectators on's answer has no public link:\n%s", w.last(alice).Text)
	}
	pub := pubm[1]
	public, err := w.svc.Pages().Page(ctx, pub, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(public, "The public page") || strings.Contains(public, "Hand:") || strings.Contains(public, "mailto:") {
		t.Errorf("the public page shows a hand or options:\n%s", public)
	}
	w.send(alice, reply[alice], "spectators off")
	if _, err := w.svc.Pages().Page(ctx, pub, -1); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("a closed game's public page: %v", err)
	}
	for _, secret := range []string{tok, renewed, pub} {
		if strings.Contains(w.logs.String(), secret) {
			t.Errorf("the log holds a link token")
		}
	}

	off := newWorld(t)
	off.startGame("felix", alice, bob, carol)
	if strings.Contains(off.last(bob).Text, "/s/") || strings.Contains(off.last(bob).HTML, "/s/") {
		t.Error("a mail links a page while pbem serves none")
	}
}

// TestPageHidesSeatAddress: a leaked page link can show, never play.
// The seat's reply address is its mail secret, which with a forged From
// is enough to play where sender authentication is off; so the page
// carries it (as one-tap links) only where authentication is on.
func TestPageHidesSeatAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	for _, authenticated := range []bool{false, true} {
		w := webWorld(t)
		if authenticated {
			w.authenticate()
		}
		reply, _ := w.startGame("felix", alice, bob, carol)
		for _, who := range []string{alice, bob, carol} {
			tok := linkIn(t, w.last(who))
			page, err := w.svc.Pages().Page(ctx, tok, -1)
			if err != nil {
				t.Fatal(err)
			}
			secret := reply[who][:strings.Index(reply[who], "@")]
			switch {
			case !authenticated && strings.Contains(page, secret):
				t.Errorf("without sender authentication %s's page shows his seat's reply address %s", who, reply[who])
			case !authenticated && strings.Contains(page, "mailto:"):
				t.Errorf("without sender authentication %s's page has one-tap links", who)
			case authenticated && !strings.Contains(page, "mailto:"):
				t.Errorf("with sender authentication %s's page has no one-tap links", who)
			}
			if !strings.Contains(page, "play ") {
				t.Errorf("%s's page does not list his options:\n%s", who, page)
			}
		}
	}
}

// TestPagesKeepHiddenValues plays whole random games of both games by
// mail with the game open to spectators. At every step it renders every
// seat's page and the public page; at the end every point of the history
// for every seat and the public. No page may show a private log entry
// its reader may not see (an Others entry is public: the history's list
// shows it to the actor too); the public page shows no hand or face-down card of
// anyone's; and the log holds no link token.
func TestPagesKeepHiddenValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, kind := range []string{"felix", "gracias"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := webWorld(t)
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
			reply, id := w.startGame(kind, players...)
			w.send(players[0], reply[players[0]], "spectators on")
			pub, err := w.st.LinkToken(ctx, id, store.PublicLink)
			if err != nil {
				t.Fatal(err)
			}
			toks := make([]string, len(players))
			for i, p := range players {
				toks[i] = linkIn(t, w.last(p))
			}
			rng := rand.New(rand.NewPCG(5, 7))
			check := func(log []engine.Event, at int) {
				t.Helper()
				for seat := -1; seat < len(players); seat++ {
					tok := pub
					if seat >= 0 {
						tok = toks[seat]
					}
					page, err := w.svc.Pages().Page(ctx, tok, at)
					if err != nil {
						t.Fatalf("seat %d at %d: %v", seat, at, err)
					}
					for _, e := range log {
						if !e.VisibleTo(seat) && !e.VisibleTo(engine.Public) && strings.Contains(page, htmlText(e.Text)) && !seenBy(log, seat, e.Text) {
							t.Errorf("seat %d's page at %d shows %q, addressed to %d", seat, at, e.Text, e.To)
						}
					}
					if seat == engine.Public {
						for _, private := range []string{"Hand:", "Your face-down cards", "mailto:"} {
							if strings.Contains(page, private) {
								t.Errorf("the public page at %d shows %q", at, private)
							}
						}
					}
				}
			}
			var log []engine.Event
			points := 1
			for steps := 0; ; steps++ {
				if steps > 600 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				log = w.engineLog(id)
				check(log, -1)
				// The page's table is the seat's own view of the game as
				// the turn loop has it (from its snapshot), no other.
				for seat := -1; seat < len(players); seat++ {
					tok := pub
					if seat >= 0 {
						tok = toks[seat]
					}
					pd, err := w.svc.Pages().Data(ctx, tok, -1)
					if err != nil {
						t.Fatal(err)
					}
					if want := tb.State.View(seat); !reflect.DeepEqual(pd.View, want) {
						t.Fatalf("seat %d's page shows the view %+v, want %+v", seat, pd.View, want)
					}
				}
				if tb.State.Result().Finished {
					break
				}
				p := tb.State.Waiting()[0]
				var cmds []string
				for _, o := range tb.State.Options(p) {
					cmds = append(cmds, o.Commands...)
				}
				w.send(players[p], reply[players[p]], cmds[rng.IntN(len(cmds))])
			}
			for at := 0; ; at++ {
				if _, err := w.svc.Pages().Page(ctx, pub, at); errors.Is(err, webpage.ErrNoPage) {
					points = at
					break
				}
				check(log, at)
			}
			if points < 10 {
				t.Fatalf("only %d points of history: the check would prove little", points)
			}
			for _, secret := range append(toks, pub) {
				if strings.Contains(w.logs.String(), secret) {
					t.Errorf("the log holds a link token")
				}
			}
		})
	}
}

// engineLog replays a game's moves as the pages do, and returns every
// event, private ones included.
func (w *world) engineLog(id int64) []engine.Event {
	w.t.Helper()
	tb := w.loaded(id)
	var setup engine.Setup
	row, err := w.st.Game(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := jsonUnmarshal(row.Setup, &setup); err != nil {
		w.t.Fatal(err)
	}
	moves, err := w.st.Moves(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	l, evs, err := engine.NewLog(tb.Rules, setup)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, m := range moves {
		e, err := l.Do(m.Seat, m.Command)
		if err != nil {
			w.t.Fatal(err)
		}
		evs = append(evs, e...)
	}
	return evs
}

// seenBy reports whether seat saw text within an entry of its own.
func seenBy(log []engine.Event, seat int, text string) bool {
	for _, e := range log {
		if e.VisibleTo(seat) && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// htmlText is text as html/template writes it in an element.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// TestReplacedSeatLosesPage: a seat given to another address (pbem admin
// replace) gets a new page link; the old player's link, which shows the
// seat's hand, leads nowhere.
func TestReplacedSeatLosesPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	_, id := w.startGame("felix", alice, bob, carol)
	old := linkIn(t, w.last(bob))
	if err := w.adminWords(ctx, id, "replace", []string{"bob", "rob@y.test"}, "root"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Pages().Page(ctx, old, -1); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("the replaced player's link still shows the seat: %v", err)
	}
	if tok, err := w.st.LinkToken(ctx, id, 1); err == nil && tok == old {
		t.Error("the new player has the old player's link")
	}
}
