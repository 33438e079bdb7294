package gracias

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
)

var botNames = []string{"alice", "bob", "carol", "dave", "erin", "frank"}

// botGame plays a game of n players with random legal moves (two-step
// turns among them) through Apply for up to steps moves, and returns it
// with its whole log.
func botGame(t *testing.T, seed uint64, n, steps int) (*Game, []engine.Event) {
	t.Helper()
	g0, log, err := Rules{}.New(engine.Setup{Players: botNames[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	g := g0.(*Game)
	rng := rand.New(rand.NewPCG(seed, 99))
	var buf []Move
	for i := 0; i < steps && g.S.Phase != Over; i++ {
		p := int(g.S.Turn)
		buf = g.S.Legal(p, buf[:0])
		ev, err := g.Apply(p, g.command(buf[rng.IntN(len(buf))]))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		log = append(log, ev...)
	}
	return g, log
}

// unseenPlaces are the positions of this session's deck whose colour
// seat cannot know: the others' face-down cards, the face-down cards of
// the triplets still there, the cards not dealt.
func unseenPlaces(s *State, seat int) []int8 {
	var out []int8
	for p := 0; p < int(s.N); p++ {
		if p != seat {
			out = append(out, s.Down[p][:s.NDown[p]]...)
		}
	}
	for t := 0; t < int(s.N); t++ {
		if s.Trip[t].Taker < 0 {
			out = append(out, s.Trip[t].Down)
		}
	}
	for pos := s.Pos; int(pos) < deckSize; pos++ {
		out = append(out, pos)
	}
	return out
}

func unseenColours(s *State, seat int) []Colour {
	var out []Colour
	for _, pos := range unseenPlaces(s, seat) {
		out = append(out, s.colourAt(pos))
	}
	slices.Sort(out)
	return out
}

// TestSampleAgreesWithView: every determinization of a seat's knowledge
// shows that seat exactly the view it had, and deals out just the cards
// it has not seen.
func TestSampleAgreesWithView(t *testing.T) {
	t.Parallel()
	games := 300
	if testing.Short() {
		games = 60
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		n := 3 + int(seed)%4
		g, log := botGame(t, seed, n, int(seed*11)%(3*rounds*n*2+4))
		if g.S.Phase == Over {
			continue
		}
		for seat := 0; seat < n; seat++ {
			sm, err := Rules{}.NewSampler(engine.KnowledgeOf(g, seat, log))
			if err != nil {
				t.Fatalf("seed %d seat %d: %v", seed, seat, err)
			}
			want := g.view(seat)
			truth := unseenColours(&g.S, seat)
			rng := rand.New(rand.NewPCG(seed, uint64(seat)))
			for k := 0; k < 4; k++ {
				s := sm.Sample(rng).(*botPlayout).s
				sg := &Game{names: g.names, S: s}
				if got := sg.view(seat); !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d seat %d: a sample's view differs:\n got %+v\nwant %+v", seed, seat, got, want)
				}
				if got := unseenColours(&s, seat); !slices.Equal(got, truth) {
					t.Fatalf("seed %d seat %d: the sample deals %v unseen, not %v", seed, seat, got, truth)
				}
				if !slices.Equal(s.Totals(), g.S.Totals()) {
					t.Fatalf("seed %d seat %d: the scored sessions differ", seed, seat)
				}
			}
		}
	}
}

// rehide returns a copy of g that differs in what seat may not know: the
// unseen cards of this session dealt anew among their places, and the
// later sessions' decks shuffled anew.
func rehide(g *Game, seat int, rng *rand.Rand) *Game {
	h := g.Clone().(*Game)
	s := &h.S
	places := unseenPlaces(s, seat)
	cards := make([]Colour, len(places))
	for i, pos := range places {
		cards[i] = s.colourAt(pos)
	}
	rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	for i, pos := range places {
		s.Deck[s.Session-1][pos] = cards[i]
	}
	for si := int(s.Session); si < sessions; si++ {
		Shuffle(&s.Deck[si], rng.IntN)
	}
	return h
}

// TestBotDoesNotPeek: two games that differ only in what a seat cannot
// see give that seat the same knowledge, and a bot with one seed the
// same move.
func TestBotDoesNotPeek(t *testing.T) {
	t.Parallel()
	games := 60
	if testing.Short() {
		games = 15
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		n := 3 + int(seed)%4
		g, log := botGame(t, seed+1000, n, int(seed*17)%(3*rounds*n*2))
		if g.S.Phase == Over {
			continue
		}
		seat := int(g.S.Turn)
		h := rehide(g, seat, rand.New(rand.NewPCG(seed, 5)))
		// The other seats' private lines (what they saw in the triplets
		// they took) would differ too.
		hlog := append([]engine.Event(nil), log...)
		for i, e := range hlog {
			if !e.VisibleTo(seat) {
				hlog[i].Text = "something else entirely: " + e.Text
			}
		}
		k, kh := engine.KnowledgeOf(g, seat, log), engine.KnowledgeOf(h, seat, hlog)
		if !reflect.DeepEqual(k, kh) {
			t.Fatalf("seed %d seat %d: the knowledge depends on hidden information", seed, seat)
		}
		b := bot.Bot{Playouts: 200, Seed: seed}
		c1, err1 := b.Choose(k)
		c2, err2 := b.Choose(kh)
		if err1 != nil || err2 != nil {
			t.Fatalf("seed %d seat %d: %v, %v", seed, seat, err1, err2)
		}
		if c1.Text != c2.Text {
			t.Fatalf("seed %d seat %d: the bot plays %q in one game and %q in the other", seed, seat, c1.Text, c2.Text)
		}
	}
}
