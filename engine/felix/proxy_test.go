package felix

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// TestPropertyProxyBidsMatchHandBids plays random games in which players
// give standing orders ("bid up to N", on their turn or ahead of it, and
// early passes) beside a twin game in which nobody does: there a model of
// the orders makes, by hand and through Apply, the move the proxy rule
// says (the highest stake plus 1 while that is at most N, else pass)
// whenever the auction comes to a seat with an order. After every command
// the two games must be in the same state (the orders aside) and have the
// same public log: proxy bids and hand-played bids give the same legal
// auctions, and every move a proxy makes is one its player could have
// made. An order given ahead of a turn must tell no one but its giver.
func TestPropertyProxyBidsMatchHandBids(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(minPlayers, maxPlayers).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		setup := engine.Setup{Players: testNames[:n], Seed: seed}
		gi, log, err := Rules{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		hi, log2, _ := Rules{}.New(setup)
		g, hand := gi.(*Game), hi.(*Game)
		specs := Rules{}.Specs()
		apply := func(g *Game, p int, text string) []engine.Event {
			cmd, err := engine.ParseCommand(specs, g.names, text)
			if err != nil {
				t.Fatalf("%q does not parse: %v", text, err)
			}
			ev, err := g.Apply(p, cmd)
			if err != nil {
				t.Fatalf("%s: %q is illegal: %v", g.names[p], text, err)
			}
			return ev
		}
		// The model: each seat's order for the auction under way.
		var ordered [maxPlayers]bool
		var limit [maxPlayers]int16
		var moves []transcript.Move
		orders, proxyMoves := 0, 0
		for steps := 0; g.S.Phase != Over; steps++ {
			if steps > 3000 {
				t.Fatal("the game does not end")
			}
			s := &g.S
			var ahead []int
			if s.Phase == Bidding {
				for q := 0; q < n; q++ {
					if q != int(s.Turn) && s.Passed&(1<<uint(q)) == 0 {
						ahead = append(ahead, q)
					}
				}
			}
			if len(ahead) > 0 && rapid.IntRange(0, 2).Draw(t, "ahead") == 0 {
				// A standing order ahead of the seat's turn.
				q := ahead[rapid.IntRange(0, len(ahead)-1).Draw(t, "who")]
				text := "pass"
				if lo, top := s.High+1, s.owned(q); lo <= top && rapid.IntRange(0, 3).Draw(t, "proxy") > 0 {
					text = "bid up to " + strconv.Itoa(int(rapid.IntRange(int(lo), int(top)).Draw(t, "limit")))
				}
				ev := apply(g, q, text)
				for _, e := range ev {
					if e.To != q {
						t.Fatalf("%s's order %q tells seat %d: %q", g.names[q], text, e.To, e.Text)
					}
				}
				if len(ev) != 1 {
					t.Fatalf("%s's order %q: %d events, want 1", g.names[q], text, len(ev))
				}
				ordered[q], limit[q] = true, 0
				if text != "pass" {
					limit[q] = int16(mustAtoi(t, strings.TrimPrefix(text, "bid up to ")))
				}
				orders++
				moves = append(moves, transcript.Move{Player: g.names[q], Command: text})
				log = append(log, ev...)
			} else {
				waiting := g.Waiting()
				p := waiting[rapid.IntRange(0, len(waiting)-1).Draw(t, "who")]
				var all []string
				for _, o := range g.Options(p) {
					all = append(all, o.Commands...)
				}
				text := all[rapid.IntRange(0, len(all)-1).Draw(t, "command")]
				if slices.Contains(all, "pass") && rapid.Bool().Draw(t, "pass") {
					text = "pass"
				}
				ev := apply(g, p, text)
				moves = append(moves, transcript.Move{Player: g.names[p], Command: text})
				log = append(log, ev...)
				if lim, ok := strings.CutPrefix(text, "bid up to "); ok {
					// On his turn: the model bids for him below.
					ordered[p], limit[p] = true, int16(mustAtoi(t, lim))
					orders++
				} else {
					log2 = append(log2, apply(hand, p, text)...)
				}
			}
			// The twin plays by hand what the orders say.
			for hand.S.Phase == Bidding && ordered[hand.S.Turn] {
				q := int(hand.S.Turn)
				text := "pass"
				if next := hand.S.High + 1; limit[q] > 0 && next <= limit[q] {
					text = "bid " + strconv.Itoa(int(next))
				}
				log2 = append(log2, apply(hand, q, text)...)
				proxyMoves++
				if text == "pass" {
					ordered[q] = false
				}
			}
			if hand.S.Phase != Bidding {
				ordered, limit = [maxPlayers]bool{}, [maxPlayers]int16{}
			}
			got := g.S
			for q := 0; q < n; q++ {
				if (got.Orders&(1<<uint(q)) != 0) != ordered[q] || (ordered[q] && got.Limit[q] != limit[q]) {
					t.Fatalf("%s's order: %v up to %d, want %v up to %d", g.names[q], got.Orders&(1<<uint(q)) != 0, got.Limit[q], ordered[q], limit[q])
				}
			}
			got.Orders, got.Limit = 0, [maxPlayers]int16{}
			if got != hand.S {
				t.Fatalf("proxy game and hand-played game differ after %v:\n%+v\n%+v", moves[len(moves)-1], got, hand.S)
			}
			if a, b := publicLog(log), publicLog(log2); a != b {
				t.Fatalf("public logs differ after %v:\n%s\n---\n%s", moves[len(moves)-1], a, b)
			}
		}
		// Only their giver reads of orders and of pbem's moves for him.
		for _, e := range log {
			if e.To < 0 && strings.Contains(e.Text, "pbem") {
				t.Fatalf("a public event speaks of an order: %q", e.Text)
			}
		}
		if orders > 0 && proxyMoves == 0 && g.S.Round < rounds {
			t.Fatalf("%d orders and no move made for them", orders)
		}
		checkExportReplay(t, g, moves, log)
	})
}

// publicLog is what a spectator reads: every event anyone but a single
// seat may see.
func publicLog(log []engine.Event) string {
	var b strings.Builder
	for _, e := range log {
		if e.VisibleTo(engine.Public) {
			b.WriteString(e.Text + "\n")
		}
	}
	return b.String()
}

func mustAtoi(t *rapid.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestProxyLoopTerminates: five proxies with every mouse they own bid
// against each other in one Apply call, and the auction still ends.
func TestProxyLoopTerminates(t *testing.T) {
	t.Parallel()
	gi, _, err := Rules{}.New(engine.Setup{Players: testNames[:5], Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	for p := 0; p < 5; p++ {
		for _, o := range g.Options(p) {
			if o.Spec == "play" {
				if _, err := g.Apply(p, spec("play").Make(strings.Split(o.Commands[0], " ")[1])); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if g.S.Phase != Bidding {
		t.Fatalf("phase %v", g.S.Phase)
	}
	start := int(g.S.Turn)
	for i := 1; i < 5; i++ {
		q := (start + i) % 5
		if _, err := g.Apply(q, spec("proxy").Make("15")); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := g.Apply(start, spec("proxy").Make("15"))
	if err != nil {
		t.Fatal(err)
	}
	if g.S.Phase == Bidding {
		t.Fatalf("the auction is still on after %d events", len(ev))
	}
}
