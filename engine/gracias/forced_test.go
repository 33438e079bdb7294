package gracias_test

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/gracias"
)

// TestPropForcedIsPublic: Gracias counts a seat's legal commands from the
// public view (docs/gracias.md, "What you see"), and the count is the
// game's own, in every phase of random games; so whether a seat is forced
// rests on public information only. (None ever is: the count is at least
// two.)
func TestPropForcedIsPublic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 6).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 5))
		g0, _, err := gracias.Rules{}.New(engine.Setup{Players: playerNames[:n], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		g := g0.(*gracias.Game)
		var buf []gracias.Move
		for g.S.Phase != gracias.Over {
			p := int(g.S.Turn)
			cmds := 0
			for _, o := range g.Options(p) {
				cmds += len(o.Commands)
			}
			buf = g.S.Legal(p, buf[:0])
			if cmds != len(buf) {
				t.Fatalf("seat %d: %d commands offered, %d legal moves", p, cmds, len(buf))
			}
			forced := gracias.Rules{}.PubliclyForced(g.View(engine.Public), p)
			if forced != (cmds == 1) {
				t.Fatalf("seat %d has %d commands in phase %s, but publicly forced is %v", p, cmds, g.S.Phase, forced)
			}
			if got := gracias.PublicCommands(g.View(engine.Public).(gracias.View)); got != cmds {
				t.Fatalf("seat %d in phase %s: the public view counts %d commands, the game has %d", p, g.S.Phase, got, cmds)
			}
			for other := range n {
				if other != p && (gracias.Rules{}).PubliclyForced(g.View(engine.Public), other) {
					t.Fatalf("seat %d is forced although the game waits on seat %d", other, p)
				}
			}
			g.S.Step(p, buf[rng.IntN(len(buf))])
		}
	})
}
