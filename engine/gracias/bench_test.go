package gracias_test

import (
	"math/bits"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/gracias"
)

// wyrand is a tiny, fast random source for playouts (Wang Yi's wyrand).
type wyrand uint64

func (r *wyrand) next() uint64 {
	*r += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(uint64(*r), uint64(*r)^0xe7037ed1a0b428db)
	return hi ^ lo
}

// intN is a number in [0, n) (Lemire's multiply-shift; the slight bias
// does not matter for playouts).
func (r *wyrand) intN(n int) int { return int((r.next() >> 32) * uint64(n) >> 32) }

// playout plays one complete random game for n players through the fast
// Legal/Step path, dealing three fresh decks first, and returns it.
func playout(n int, r *wyrand, decks *[3][108]gracias.Colour, buf []gracias.Move) (gracias.State, []gracias.Move) {
	for i := range decks {
		gracias.Shuffle(&decks[i], r.intN)
	}
	s := gracias.NewState(n, r.intN(n), decks)
	for s.Phase != gracias.Over {
		p := int(s.Turn)
		buf = s.Legal(p, buf[:0])
		s.Step(p, buf[r.intN(len(buf))])
	}
	return s, buf
}

// BenchmarkRandomGame4p measures complete random 4-player games per
// second, dealing included (see BENCHMARKS.md).
func BenchmarkRandomGame4p(b *testing.B) {
	benchmarkGames(b, 4)
}

func BenchmarkRandomGame3p(b *testing.B) { benchmarkGames(b, 3) }
func BenchmarkRandomGame6p(b *testing.B) { benchmarkGames(b, 6) }

func benchmarkGames(b *testing.B, n int) {
	r := wyrand(1)
	var decks [3][108]gracias.Colour
	buf := make([]gracias.Move, 0, 128)
	b.ReportAllocs()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		_, buf = playout(n, &r, &decks, buf)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
}

// TestPlayoutsFinish keeps the benchmark's playout honest: it must play
// whole games.
func TestPlayoutsFinish(t *testing.T) {
	t.Parallel()
	r := wyrand(9)
	var decks [3][108]gracias.Colour
	for n := 3; n <= 6; n++ {
		s, _ := playout(n, &r, &decks, nil)
		if s.Phase != gracias.Over || s.Session != 3 || s.Round != 4 {
			t.Errorf("%d players: playout ends in session %d round %d, phase %v", n, s.Session, s.Round, s.Phase)
		}
	}
}
