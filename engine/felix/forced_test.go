package felix

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// commandCount is how many legal commands seat has in g.
func commandCount(g engine.Game, seat int) int {
	n := 0
	for _, o := range g.Options(seat) {
		n += len(o.Commands)
	}
	return n
}

// TestPropertyForcedIsPublic: whether a seat is publicly forced depends
// on public information only, and a publicly forced seat has exactly one
// legal command in the game and in every game that differs from it only
// in what the table cannot see (perturb: hands, set-aside cards, money,
// standing orders, the dummy's pile). The last card of round 9 is always
// forced; a seat whose only command is pass, for want of money, never is.
func TestPropertyForcedIsPublic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "perturb"), 11))
		randomGame(t, func(g *Game, _ []transcript.Move, _ []engine.Event) {
			public := g.View(engine.Public)
			g2 := g.Clone().(*Game)
			perturb(&g2.S, engine.Public, rng)
			for seat := range int(g.S.N) {
				forced := Rules{}.PubliclyForced(public, seat)
				if forced2 := (Rules{}).PubliclyForced(g2.View(engine.Public), seat); forced2 != forced {
					t.Fatalf("seat %d: forced %v, but %v once hidden information changed", seat, forced, forced2)
				}
				one := commandCount(g, seat) == 1
				if forced && (!one || commandCount(g2, seat) != 1) {
					t.Fatalf("seat %d is publicly forced with %d commands (%d once hidden information changed): %v", seat, commandCount(g, seat), commandCount(g2, seat), g.Options(seat))
				}
				lastCard := g.S.Phase == Placing && g.S.Round == rounds && g.S.WaitingMask()&(1<<uint(seat)) != 0
				if lastCard != forced {
					t.Fatalf("seat %d in round %d, phase %s: forced %v", seat, g.S.Round, g.S.Phase, forced)
				}
				if cmd, ok := engine.ForcedCommand(g, seat); ok != forced || (ok && cmd != g.Options(seat)[0].Commands[0]) {
					t.Fatalf("seat %d: ForcedCommand %q, %v; PubliclyForced %v", seat, cmd, ok, forced)
				}
			}
		})
	})
}

// TestForcedPassIsAsked: a seat that can only pass, because it cannot
// afford to raise, is not publicly forced: the same public view allows a
// seat with more money to bid.
func TestForcedPassIsAsked(t *testing.T) {
	gi, _, err := Rules{}.New(engine.Setup{Players: testNames[:4], Seed: 1, Start: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	for seat := range 4 {
		play(t, g, seat, g.Options(seat)[0].Commands[0])
	}
	play(t, g, 0, "bid 3")
	g.S.Money[1] = 0 // bob owns 0 mice now: pass is his only command
	if n := commandCount(g, 1); n != 1 {
		t.Fatalf("bob has %d commands, want pass alone: %v", n, g.Options(1))
	}
	if Rules.PubliclyForced(Rules{}, g.View(engine.Public), 1) {
		t.Fatal("bob's pass is forced by his money, which the table cannot see, but it counts as publicly forced")
	}
	if _, ok := engine.ForcedCommand(g, 1); ok {
		t.Fatal("ForcedCommand makes bob's pass")
	}
}

func play(t *testing.T, g *Game, seat int, text string) {
	t.Helper()
	cmd, err := engine.ParseCommand(Rules{}.Specs(), g.names, text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(seat, cmd); err != nil {
		t.Fatal(err)
	}
}
