package bot_test

import (
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
)

// benchmarkFirstMove times a Strong bot's first move of a game, among the
// slowest of a game since its playouts are the longest (BENCHMARKS.md,
// "Bots: strength": under 200 ms on one core).
func benchmarkFirstMove(b *testing.B, game string, n int) {
	rules, _ := games.Lookup(game)
	g, log, err := rules.New(engine.Setup{Players: names[:n], Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	k := engine.KnowledgeOf(g, g.Waiting()[0], log)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := bot.New(bot.Strong, uint64(i)).Choose(k); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/move")
}

func BenchmarkStrongFirstMoveFelix4p(b *testing.B)   { benchmarkFirstMove(b, "felix", 4) }
func BenchmarkStrongFirstMoveGracias6p(b *testing.B) { benchmarkFirstMove(b, "gracias", 6) }
