package felix

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/pbem/pbem/engine"
)

// playout plays s to the end with uniformly random legal moves, the way a
// bot's Monte Carlo search would, and returns the number of moves.
func playout(s *State, rng *rand.Rand) int {
	moves := 0
	for s.Phase != Over {
		p := bits.TrailingZeros8(s.WaitingMask())
		m, _ := s.RandomMove(p, rng)
		s.step(p, m, nil)
		moves++
	}
	return moves
}

// BenchmarkRandomGame4p measures complete random 4-player games from a
// copy of the initial state: the target is at least 100,000 a second on
// one core (BENCHMARKS.md).
func BenchmarkRandomGame4p(b *testing.B) {
	g, _, err := Rules{}.New(engine.Setup{Players: testNames[:4], Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	start := g.(*Game).S
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := start // a plain copy: the state has no pointers
		moves += playout(&s, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// BenchmarkGameInterface4p plays random 4-player games through the
// engine.Game interface the daemon uses: set-up, options, parsed commands
// and the log in words.
func BenchmarkGameInterface4p(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	specs := Rules{}.Specs()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g, _, err := Rules{}.New(engine.Setup{Players: testNames[:4], Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Result().Finished {
			p := g.Waiting()[0]
			var all []string
			for _, o := range g.Options(p) {
				all = append(all, o.Commands...)
			}
			c, err := engine.ParseCommand(specs, g.Players(), all[rng.IntN(len(all))])
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.Apply(p, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// TestRandomMoveIsLegal: RandomMove only returns moves Legal lists, and
// over many draws it returns every one of them.
func TestRandomMoveIsLegal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for game := 0; game < 200; game++ {
		g, _, err := Rules{}.New(engine.Setup{Players: testNames[:3+game%3], Seed: uint64(game)})
		if err != nil {
			t.Fatal(err)
		}
		s := g.(*Game).S
		for s.Phase != Over {
			p := bits.TrailingZeros8(s.WaitingMask())
			legal := s.Legal(p, nil)
			seen := map[Move]bool{}
			for i := 0; i < 40*len(legal); i++ {
				m, ok := s.RandomMove(p, rng)
				if !ok || s.check(p, m, nil) != "" {
					t.Fatalf("RandomMove gave an illegal move %+v", m)
				}
				seen[m] = true
			}
			if len(seen) != len(legal) {
				t.Fatalf("RandomMove reached %d of %d legal moves", len(seen), len(legal))
			}
			m, _ := s.RandomMove(p, rng)
			s.step(p, m, nil)
		}
		if _, ok := s.RandomMove(0, rng); ok {
			t.Fatal("a move in a finished game")
		}
	}
}
