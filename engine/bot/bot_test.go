package bot_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
)

var names = []string{"alice", "bob", "carol", "dave", "erin", "frank"}

// randomCommand is one of the commands seat may give, at random.
func randomCommand(t *testing.T, g engine.Game, seat int, rng *rand.Rand) engine.Command {
	t.Helper()
	var all []string
	for _, o := range g.Options(seat) {
		all = append(all, o.Commands...)
	}
	text := all[rng.IntN(len(all))]
	cs, _ := engine.Match(g.Rules().Specs(), g.Players(), engine.Tokens(text), engine.MatchOptions{})
	for _, c := range cs {
		if strings.EqualFold(c.Text, text) {
			return c
		}
	}
	t.Fatalf("option %q reads as no command", text)
	return engine.Command{}
}

// position is a game of rules for n players after up to steps random
// commands, with its log.
func position(t *testing.T, rules engine.Rules, n int, seed uint64, steps int) (engine.Game, []engine.Event) {
	t.Helper()
	g, log, err := rules.New(engine.Setup{Players: names[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < steps && !g.Result().Finished; i++ {
		w := g.Waiting()
		p := w[rng.IntN(len(w))]
		ev, err := g.Apply(p, randomCommand(t, g, p, rng))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, ev...)
	}
	return g, log
}

// eachPosition calls f on random unfinished positions of every game at
// every player count.
func eachPosition(t *testing.T, perCount int, f func(t *testing.T, g engine.Game, log []engine.Event, seed uint64)) {
	for _, name := range games.Names() {
		rules, _ := games.Lookup(name)
		for n := rules.MinPlayers(); n <= rules.MaxPlayers(); n++ {
			for i := 0; i < perCount; i++ {
				seed := uint64(n*1000 + i)
				g, log := position(t, rules, n, seed, int(seed*37%120))
				if g.Result().Finished {
					continue
				}
				t.Run(fmt.Sprintf("%s/%d/%d", name, n, seed), func(t *testing.T) { f(t, g, log, seed) })
			}
		}
	}
}

func TestParseLevel(t *testing.T) {
	t.Parallel()
	for _, l := range bot.Levels() {
		got, err := bot.ParseLevel(string(l))
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %q, %v", l, got, err)
		}
	}
	for _, s := range []string{"", "Strong", "hard", "default"} {
		if _, err := bot.ParseLevel(s); err == nil {
			t.Errorf("ParseLevel(%q) accepted", s)
		}
	}
}

// TestSameSeedSameMove: the move depends only on the knowledge and the
// seed.
func TestSameSeedSameMove(t *testing.T) {
	t.Parallel()
	eachPosition(t, 3, func(t *testing.T, g engine.Game, log []engine.Event, seed uint64) {
		seat := g.Waiting()[0]
		b := bot.Bot{Playouts: 150, Seed: seed}
		c1, err := b.Choose(engine.KnowledgeOf(g, seat, log))
		if err != nil {
			t.Fatal(err)
		}
		c2, err := b.Choose(engine.KnowledgeOf(g.Clone(), seat, log))
		if err != nil {
			t.Fatal(err)
		}
		if c1.Text != c2.Text {
			t.Fatalf("one seed, two moves: %q and %q", c1.Text, c2.Text)
		}
	})
}

// TestBudgetZeroPlaysTheDefault: without playouts the bot makes the
// game's fixed default move, for every waiting seat.
func TestBudgetZeroPlaysTheDefault(t *testing.T) {
	t.Parallel()
	eachPosition(t, 3, func(t *testing.T, g engine.Game, log []engine.Event, seed uint64) {
		for _, seat := range g.Waiting() {
			got, err := bot.Bot{Seed: seed}.Choose(engine.KnowledgeOf(g, seat, log))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := g.Default(seat)
			if got.Text != want.Text || got.Name != want.Name {
				t.Fatalf("seat %d: budget 0 plays %q, the default is %q", seat, got.Text, want.Text)
			}
		}
	})
}

// TestChosenMovesAreLegal: at every level's way of choosing (small
// budgets here), for every waiting seat, the bot's command applies.
func TestChosenMovesAreLegal(t *testing.T) {
	t.Parallel()
	bots := []bot.Bot{{Playouts: 30}, {Playouts: 30, Temperature: 0.1}, {Playouts: 1}}
	eachPosition(t, 4, func(t *testing.T, g engine.Game, log []engine.Event, seed uint64) {
		for _, seat := range g.Waiting() {
			for _, b := range bots {
				b.Seed = seed
				c, err := b.Choose(engine.KnowledgeOf(g, seat, log))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Clone().Apply(seat, c); err != nil {
					t.Fatalf("seat %d: %+v chose %q: %v", seat, b, c.Text, err)
				}
			}
		}
	})
}

// TestBotsPlayWholeGames: a table of bots plays every game to its end at
// every player count, every command legal.
func TestBotsPlayWholeGames(t *testing.T) {
	t.Parallel()
	for _, name := range games.Names() {
		rules, _ := games.Lookup(name)
		for n := rules.MinPlayers(); n <= rules.MaxPlayers(); n++ {
			g, log, err := rules.New(engine.Setup{Players: names[:n], Seed: uint64(n)})
			if err != nil {
				t.Fatal(err)
			}
			for moves := 0; !g.Result().Finished; moves++ {
				if moves > 2000 {
					t.Fatalf("%s, %d players: no end after %d moves", name, n, moves)
				}
				seat := g.Waiting()[0]
				c, err := bot.Bot{Playouts: 8, Seed: uint64(moves)}.Choose(engine.KnowledgeOf(g, seat, log))
				if err != nil {
					t.Fatalf("%s, %d players: %v", name, n, err)
				}
				ev, err := g.Apply(seat, c)
				if err != nil {
					t.Fatalf("%s, %d players: %v", name, n, err)
				}
				log = append(log, ev...)
			}
		}
	}
}

func TestNotWaiting(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("gracias")
	g, log := position(t, rules, 4, 1, 0)
	other := (g.Waiting()[0] + 1) % 4
	if _, err := bot.New(bot.Easy, 1).Choose(engine.KnowledgeOf(g, other, log)); !errors.Is(err, bot.ErrNotWaiting) {
		t.Fatalf("a seat the game does not wait on: %v", err)
	}
}

// plainRules and plainGame hide a game's engine.Sampling.
type plainRules struct{ engine.Rules }

type plainGame struct{ engine.Game }

func (g plainGame) Rules() engine.Rules { return plainRules{g.Game.Rules()} }

func TestNotSupported(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("felix")
	g, log := position(t, rules, 4, 1, 0)
	_, err := bot.New(bot.Strong, 1).Choose(engine.KnowledgeOf(plainGame{g}, 0, log))
	if !errors.Is(err, bot.ErrNotSupported) {
		t.Fatalf("a game without engine.Sampling: %v", err)
	}
}

// TestMove: the daemon's entry point is Choose on the seat's knowledge.
func TestMove(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("felix")
	g, log := position(t, rules, 4, 2, 5)
	seat := g.Waiting()[0]
	got, err := bot.Move(g, seat, log, bot.Easy, 9)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := bot.New(bot.Easy, 9).Choose(engine.KnowledgeOf(g, seat, log))
	if got.Text != want.Text {
		t.Fatalf("Move plays %q, Choose %q", got.Text, want.Text)
	}
}
