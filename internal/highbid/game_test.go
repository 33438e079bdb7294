package highbid

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/templates"
)

var players = []string{"alice", "bob", "carol"}

func newGame(t *testing.T, names ...string) *Game {
	t.Helper()
	g, ev, err := Rules{}.New(engine.Setup{Players: names, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) == 0 {
		t.Fatal("no opening events")
	}
	return g.(*Game)
}

func play(t *testing.T, g engine.Game, seat int, text string) []engine.Event {
	t.Helper()
	c, err := engine.ParseCommand(Rules{}.Specs(), g.Players(), text)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := g.Apply(seat, c)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return ev
}

func illegal(t *testing.T, g engine.Game, seat int, text, want string) {
	t.Helper()
	before, _ := g.MarshalJSON()
	c, err := engine.ParseCommand(Rules{}.Specs(), g.Players(), text)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Apply(seat, c)
	var ie *engine.IllegalError
	if !errors.As(err, &ie) || !strings.Contains(ie.Reason, want) {
		t.Fatalf("%s by seat %d: %v, want an IllegalError saying %q", text, seat, err, want)
	}
	after, _ := g.MarshalJSON()
	if !bytes.Equal(before, after) {
		t.Fatalf("the refused %s changed the game", text)
	}
}

func TestSetup(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 6} {
		if _, _, err := (Rules{}).New(engine.Setup{Players: []string{"a", "b", "c", "d", "e", "f"}[:n]}); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
	if _, _, err := (Rules{}).New(engine.Setup{Players: players, Start: "bob"}); err == nil {
		t.Error("a start player accepted")
	}
	g := newGame(t, players...)
	if w := g.Waiting(); !reflect.DeepEqual(w, []int{0, 1, 2}) {
		t.Fatalf("waiting %v, want everyone at once", w)
	}
	if o := g.Options(1); len(o) != 1 || o[0].Text != "play 1|2|3|4|5|6" || len(o[0].Commands) != 6 {
		t.Fatalf("options %+v", o)
	}
	if c, ok := g.Default(2); !ok || c.Text != "play 1" {
		t.Fatalf("default %v %v, want play 1", c, ok)
	}
	// Setup writes out everything: a game from it equals the seeded one.
	g2, _, err := Rules{}.New(g.Setup())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := g.MarshalJSON()
	b, _ := g2.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatal("Setup does not rebuild the game")
	}
}

func TestRound(t *testing.T) {
	t.Parallel()
	g := newGame(t, players...)
	ev := play(t, g, 0, "play 3")
	if len(ev) != 2 || ev[0].To != 0 || ev[0].Text != "You put your 3 face down in round 1." || ev[1].To != engine.Others(0) || strings.Contains(ev[1].Text, "3") {
		t.Fatalf("events %+v", ev)
	}
	illegal(t, g, 0, "play 4", "already")
	illegal(t, g, 1, "play 9", "not a card")
	if w := g.Waiting(); !reflect.DeepEqual(w, []int{1, 2}) {
		t.Fatalf("waiting %v", w)
	}
	play(t, g, 1, "play 5")
	ev = play(t, g, 2, "play 5")
	var texts []string
	for _, e := range ev {
		texts = append(texts, e.Text)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "Round 1, the cards turned up: alice 3, bob 5, carol 5.") || !strings.Contains(all, "alice scores 3") {
		t.Fatalf("reveal:\n%s", all)
	}
	if g.S.Points[0] != 3 || g.S.Points[1] != 0 || g.S.Round != 2 {
		t.Fatalf("state %+v", g.S)
	}
	illegal(t, g, 1, "play 5", "no 5 in your hand")
	// All alike: nobody scores.
	play(t, g, 0, "play 6")
	play(t, g, 1, "play 6")
	ev = play(t, g, 2, "play 6")
	if !strings.Contains(ev[len(ev)-1].Text, "nobody scores") || g.S.Points[0] != 3 {
		t.Fatalf("a round of equal cards: %+v %+v", ev, g.S.Points)
	}
}

func TestWholeGame(t *testing.T) {
	t.Parallel()
	g := newGame(t, players...)
	// Everyone plays alike: nobody ever scores, and all share the win.
	for c := 1; c <= Cards; c++ {
		for p := range players {
			play(t, g, p, "play "+string(rune('0'+c)))
		}
	}
	r := g.Result()
	if !r.Finished || !reflect.DeepEqual(r.Scores, []int{0, 0, 0}) || len(r.Winners) != 3 {
		t.Fatalf("all equal: %+v", r)
	}
	if g.Waiting() != nil || g.Options(0) != nil {
		t.Fatal("a finished game waits")
	}
	if _, ok := g.Default(0); ok {
		t.Fatal("a default in a finished game")
	}
	illegal(t, g, 0, "play 1", "the game is over")

	g = newGame(t, "a", "b", "c", "d")
	for round := 0; round < Cards; round++ {
		play(t, g, 0, "play "+string(rune('6'-round)))
		play(t, g, 1, "play "+string(rune('1'+round)))
		play(t, g, 2, "play "+string(rune('1'+round)))
		play(t, g, 3, "play "+string(rune('1'+round)))
	}
	// a plays 6 down to 1, the others 1 up to 6 all alike: a's card is
	// the only lone one every round and scores 21.
	if r := g.Result(); !r.Finished || !reflect.DeepEqual(r.Winners, []int{0}) || r.Scores[0] != 21 {
		t.Fatalf("result %+v", r)
	}
}

// TestRandomGames plays random games and checks what every engine.Game
// must hold: determinism, saving and restoring, clones, and views that
// show a player nothing of another's hand or face-down card.
func TestRandomGames(t *testing.T) {
	t.Parallel()
	for seed := uint64(0); seed < 40; seed++ {
		n := 3 + int(seed%3)
		names := []string{"alice", "bob", "carol", "dave", "erin"}[:n]
		rng := rand.New(rand.NewPCG(seed, 1))
		g := newGame(t, names...)
		var log []string
		for steps := 0; !g.Result().Finished; steps++ {
			if steps > n*Cards {
				t.Fatal("the game does not end")
			}
			checkViews(t, g)
			w := g.Waiting()
			seat := w[rng.IntN(len(w))]
			var c engine.Command
			if rng.IntN(4) == 0 {
				c, _ = g.Default(seat)
			} else {
				cmds := g.Options(seat)[0].Commands
				c, _ = engine.ParseCommand(Rules{}.Specs(), names, cmds[rng.IntN(len(cmds))])
			}
			clone := g.Clone()
			if _, err := g.Apply(seat, c); err != nil {
				t.Fatal(err)
			}
			log = append(log, names[seat]+" "+c.Text)
			if a, b := mustJSON(t, clone), mustJSON(t, g); bytes.Equal(a, b) {
				t.Fatal("a move changed the clone too, or nothing")
			}
			restored, err := Rules{}.Unmarshal(mustJSON(t, g))
			if err != nil || !bytes.Equal(mustJSON(t, restored), mustJSON(t, g)) {
				t.Fatalf("restore: %v", err)
			}
		}
		if r := g.Result(); len(r.Winners) == 0 || len(r.Scores) != n {
			t.Fatalf("result %+v", r)
		}
		// Replaying the log gives the same game.
		h := newGame(t, names...)
		for _, l := range log {
			name, text, _ := strings.Cut(l, " ")
			play(t, h, engine.Seat(h, name), text)
		}
		if !bytes.Equal(mustJSON(t, g), mustJSON(t, h)) {
			t.Fatal("the game is not a function of its commands")
		}
	}
}

func mustJSON(t *testing.T, g engine.Game) []byte {
	t.Helper()
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkViews: what p sees does not change when another player's hidden
// cards change: every way to swap q's face-down card with a card of q's
// hand leaves p's view (and the public one) the same.
func checkViews(t *testing.T, g *Game) {
	t.Helper()
	for q := range g.names {
		d := g.S.Down[q]
		if d == 0 {
			continue
		}
		for _, h := range g.hand(q) {
			twin := g.Clone().(*Game)
			twin.S.Down[q] = h
			twin.S.Hands[q] = twin.S.Hands[q]&^(1<<h) | 1<<d
			for _, p := range append([]int{engine.Public}, seatsBut(len(g.names), q)...) {
				a, _ := json.Marshal(g.View(p))
				b, _ := json.Marshal(twin.View(p))
				if !bytes.Equal(a, b) {
					t.Fatalf("seat %d's view tells seat %d's face-down card:\n%s\n%s", p, q, a, b)
				}
			}
			if a, _ := json.Marshal(g.View(q)); bytes.Equal(a, mustView(twin, q)) {
				t.Fatalf("seat %d's own view does not show its face-down card", q)
			}
		}
	}
}

func mustView(g *Game, seat int) []byte { b, _ := json.Marshal(g.View(seat)); return b }

func seatsBut(n, q int) []int {
	var out []int
	for p := 0; p < n; p++ {
		if p != q {
			out = append(out, p)
		}
	}
	return out
}

// TestPresents: the renderer takes High Bid and its mails show the table,
// the reader's own cards and the rules.
func TestPresents(t *testing.T) {
	t.Parallel()
	r, err := templates.New(map[string]engine.Rules{"highbid": Rules{}})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, players...)
	play(t, g, 0, "play 4")
	m, err := r.Game(templates.GameMail{Service: "pbem", GameID: 1, Game: "highbid", Title: Rules{}.Title(), Reader: "alice",
		View: g.View(0), Waiting: []string{"bob", "carol"}, Kind: templates.MailTurn})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Your hand: 1, 2, 3, 5, 6", "Your card this round: 4, face down", "- bob: 0 points, 6 cards in hand, not played yet", "- alice (you): 0 points, 5 cards in hand, card face down"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("alice's mail lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.HTML, "yours, face down") || !strings.Contains(m.HTML, "background-color:#1d5a99") {
		t.Errorf("the HTML part draws no cards:\n%s", m.HTML)
	}
	n, err := r.Notice(templates.Notice{Service: "pbem", Kind: templates.NoticeRules, Game: "highbid", Title: Rules{}.Title()})
	if err != nil || !strings.Contains(strings.Join(strings.Fields(n.Text), " "), "the highest card that nobody else played scores its value") {
		t.Fatalf("rules %v:\n%s", err, n.Text)
	}
}
