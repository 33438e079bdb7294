package felix

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
)

// botGame plays a game of n players with random moves through Apply for
// up to steps moves, now and then with a standing order ("bid up to N",
// or a standing pass) from a seat whose turn it is not, and returns it
// with its whole log.
func botGame(t *testing.T, seed uint64, n, steps int) (*Game, []engine.Event) {
	t.Helper()
	g0, log, err := Rules{}.New(engine.Setup{Players: testNames[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	g := g0.(*Game)
	rng := rand.New(rand.NewPCG(seed, 99))
	for i := 0; i < steps && g.S.Phase != Over; i++ {
		if g.S.Phase == Bidding && rng.IntN(6) == 0 {
			q := rng.IntN(n)
			order := Move{OpProxy, g.S.High + int16(rng.IntN(6))}
			if rng.IntN(3) == 0 {
				order = Move{Op: OpPass}
			}
			if q != int(g.S.Turn) && g.S.check(q, order, nil) == "" {
				ev, err := g.Apply(q, command(order))
				if err != nil {
					t.Fatal(err)
				}
				log = append(log, ev...)
				continue
			}
		}
		w := g.Waiting()
		p := w[rng.IntN(len(w))]
		m, _ := g.S.RandomMove(p, rng)
		ev, err := g.Apply(p, command(m))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		log = append(log, ev...)
	}
	return g, log
}

// unseenOf is what of colour c's set a seat other than c cannot see in
// s: the hand, the set-aside card, the card face down in the row, and for
// the dummy its pile from the next round on.
func unseenOf(s *State, c int) uint16 {
	var m uint16
	if c == dummyColour {
		for r := int(s.Round); r < rounds; r++ {
			m |= 1 << uint(s.Dummy[r])
		}
	} else {
		m = s.Hand[c]
	}
	m |= 1 << uint(s.Removed[c])
	for slot := 0; slot < int(s.RowLen); slot++ {
		owner := s.ownerOf(slot)
		if owner < 0 {
			owner = dummyColour
		}
		if owner == c && s.Filled&(1<<uint(slot)) != 0 && s.Up&(1<<uint(slot)) == 0 {
			m |= 1 << uint(s.Row[slot].kind())
		}
	}
	return m
}

// TestSampleAgreesWithView: every determinization of a seat's knowledge
// shows that seat exactly the view it had, deals each opponent (and the
// dummy) just the cards of his set the seat has not seen, and gives every
// opponent his true money, which the public log tells.
func TestSampleAgreesWithView(t *testing.T) {
	t.Parallel()
	games := 300
	if testing.Short() || raceEnabled {
		games = 60
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		n := 3 + int(seed)%3
		g, log := botGame(t, seed, n, int(seed*7)%110)
		if g.S.Phase == Over {
			continue
		}
		for seat := 0; seat < n; seat++ {
			sm, err := Rules{}.NewSampler(engine.KnowledgeOf(g, seat, log))
			if err != nil {
				t.Fatalf("seed %d seat %d: %v", seed, seat, err)
			}
			want := g.view(seat)
			rng := rand.New(rand.NewPCG(seed, uint64(seat)))
			for k := 0; k < 4; k++ {
				s := sm.Sample(rng).(*botPlayout).s
				sg := &Game{names: g.names, S: s}
				if got := sg.view(seat); !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d seat %d: a sample's view differs:\n got %+v\nwant %+v", seed, seat, got, want)
				}
				for c := 0; c <= dummyColour; c++ {
					if c == seat || (c >= n && c != dummyColour) || (c == dummyColour && n != 3) {
						continue
					}
					if got, want := unseenOf(&s, c), unseenOf(&g.S, c); got != want {
						t.Fatalf("seed %d seat %d: colour %d's unseen cards are %010b, not %010b", seed, seat, c, got, want)
					}
					if c < n && s.Money[c] != g.S.Money[c] {
						t.Fatalf("seed %d seat %d: player %d has %d mice in the sample, not %d", seed, seat, c, s.Money[c], g.S.Money[c])
					}
				}
				if s.Orders&^(1<<uint(seat)) != 0 {
					t.Fatalf("seed %d seat %d: the sample gives others standing orders", seed, seat)
				}
				if s.TotalMoney() != g.S.TotalMoney() {
					t.Fatalf("seed %d seat %d: the sample's money adds up to %d, not %d", seed, seat, s.TotalMoney(), g.S.TotalMoney())
				}
			}
		}
	}
}

// rehide returns a copy of g that differs in everything seat may not
// know: the opponents' unseen cards (and the dummy's) dealt anew among
// their places, the opponents' money and standing orders changed. It
// keeps each opponent's set whole, so the copy is a game the rules could
// reach.
func rehide(g *Game, seat int, rng *rand.Rand) *Game {
	h := g.Clone().(*Game)
	s := &h.S
	n := int(s.N)
	for c := 0; c <= dummyColour; c++ {
		if c == seat || (c >= n && c != dummyColour) || (c == dummyColour && n != 3) {
			continue
		}
		var kinds []Kind
		for m := unseenOf(s, c); m != 0; m &= m - 1 {
			kinds = append(kinds, Kind(bits.TrailingZeros16(m)))
		}
		rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
		for slot := 0; slot < int(s.RowLen); slot++ {
			owner := s.ownerOf(slot)
			if owner < 0 {
				owner = dummyColour
			}
			if owner == c && s.Filled&(1<<uint(slot)) != 0 && s.Up&(1<<uint(slot)) == 0 {
				s.Row[slot] = mkCard(c, kinds[0])
				kinds = kinds[1:]
			}
		}
		if c == dummyColour {
			for r := int(s.Round); r < rounds; r++ {
				s.Dummy[r], kinds = kinds[0], kinds[1:]
			}
		} else {
			hand := bits.OnesCount16(s.Hand[c])
			s.Hand[c] = 0
			for i := 0; i < hand; i++ {
				s.Hand[c] |= 1 << uint(kinds[i])
			}
			kinds = kinds[hand:]
			s.Money[c] += int16(rng.IntN(20))
			if s.Phase == Bidding && s.Passed&(1<<uint(c)) == 0 && rng.IntN(2) == 0 {
				s.Orders |= 1 << uint(c)
				s.Limit[c] = s.High + int16(rng.IntN(10))
			}
		}
		s.Removed[c] = kinds[0]
	}
	return h
}

// relog returns log with every entry seat may not read rewritten: another
// game's private lines would say other things.
func relog(log []engine.Event, seat int) []engine.Event {
	out := append([]engine.Event(nil), log...)
	for i, e := range out {
		if !e.VisibleTo(seat) {
			out[i].Text = "something else entirely: " + e.Text
		}
	}
	return out
}

// TestBotDoesNotPeek: two games that differ only in what a seat cannot
// see give that seat the same knowledge, and a bot with one seed the
// same move.
func TestBotDoesNotPeek(t *testing.T) {
	t.Parallel()
	games := 60
	if testing.Short() || raceEnabled {
		games = 15
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		n := 3 + int(seed)%3
		g, log := botGame(t, seed+1000, n, int(seed*13)%100)
		w := g.Waiting()
		if len(w) == 0 {
			continue
		}
		rng := rand.New(rand.NewPCG(seed, 5))
		seat := w[rng.IntN(len(w))]
		k := engine.KnowledgeOf(g, seat, log)
		h := rehide(g, seat, rng)
		kh := engine.KnowledgeOf(h, seat, relog(log, seat))
		if !reflect.DeepEqual(k, kh) {
			t.Fatalf("seed %d seat %d: the knowledge depends on hidden information", seed, seat)
		}
		b := bot.Bot{Playouts: 300, Seed: seed}
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
