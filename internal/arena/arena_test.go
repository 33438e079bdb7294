package arena

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
)

func TestWilson(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		wins      float64
		n         int
		low, high float64
	}{
		// Reference values: the Wilson score interval at z = 1.96.
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{60, 100, 0.5020, 0.6906},
		{900, 1000, 0.8797, 0.9166},
		{0, 0, 0, 1},
	} {
		low, high := Wilson(c.wins, c.n, z95)
		if math.Abs(low-c.low) > 5e-4 || math.Abs(high-c.high) > 5e-4 {
			t.Errorf("Wilson(%v, %d) = %.4f..%.4f, want %.4f..%.4f", c.wins, c.n, low, high, c.low, c.high)
		}
	}
}

func TestParsePlayer(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"default", "random", "easy", "normal", "strong"} {
		if p, err := ParsePlayer(s); err != nil || string(p) != s {
			t.Errorf("ParsePlayer(%q) = %q, %v", s, p, err)
		}
	}
	if _, err := ParsePlayer("hard"); err == nil {
		t.Error("ParsePlayer accepted hard")
	}
}

// TestRunIsDeterministic: a run's figures (times aside) are a function of
// its configuration, however many games run at once.
func TestRunIsDeterministic(t *testing.T) {
	t.Parallel()
	for _, game := range games.Names() {
		rules, _ := games.Lookup(game)
		cfg := Config{Rules: rules, Players: 3, Games: 6, Seed: 4, Seat: "normal", Others: Random, Playouts: 5}
		a, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Parallel = 3
		cfg.Now = time.Now
		b, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a.MeanMove != 0 || a.MaxMove != 0 || b.BotMoves == 0 || b.MeanMove <= 0 {
			t.Errorf("%s: times %v %v without a clock, %v with one over %d moves", game, a.MeanMove, a.MaxMove, b.MeanMove, b.BotMoves)
		}
		b.MeanMove, b.MaxMove = 0, 0
		if a != b {
			t.Errorf("%s: two runs differ:\n%+v\n%+v", game, a, b)
		}
		if a.Games != 6 || a.Wins < 0 || a.Wins > 6 || a.Low > a.Rate || a.High < a.Rate || a.Expected != 1.0/3 {
			t.Errorf("%s: odd report %+v", game, a)
		}
	}
}

// TestBotBeatsDefault: even a small search wins most Felix games against
// the fixed default (which passes every auction).
func TestBotBeatsDefault(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("felix")
	r, err := Run(context.Background(), Config{Rules: rules, Players: 4, Games: 8, Seed: 1, Seat: "strong", Others: Default, Playouts: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rate < 0.75 {
		t.Fatalf("a 100-playout bot won %.0f%% against the default", 100*r.Rate)
	}
}

func TestRunRejects(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("felix")
	for _, cfg := range []Config{
		{Players: 4, Games: 1, Seat: Default, Others: Default},
		{Rules: rules, Players: 2, Games: 1, Seat: Default, Others: Default},
		{Rules: rules, Players: 4, Games: 0, Seat: Default, Others: Default},
		{Rules: rules, Players: 4, Games: 1, Seat: "hard", Others: Default},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := Run(ctx, Config{Rules: rules, Players: 4, Games: 100, Seat: Default, Others: Default}); err == nil || r.Games != 0 {
		t.Errorf("a cancelled run: %d games, %v", r.Games, err)
	}
}

// TestStopReportsGamesPlayed: a run stopped midway reports the games it
// played, which are the first ones of the full run.
func TestStopReportsGamesPlayed(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("felix")
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Rules: rules, Players: 4, Games: 50, Seed: 2, Seat: "easy", Others: Random, Playouts: 3,
		Progress: func(done int) {
			if done == 5 {
				cancel()
			}
		}}
	r, err := Run(ctx, cfg)
	if err == nil || r.Games < 5 || r.Games >= 50 {
		t.Fatalf("stopped after 5 games: %d games, %v", r.Games, err)
	}
	cfg.Games, cfg.Progress = r.Games, nil
	full, err := Run(context.Background(), cfg)
	if err != nil || full != r {
		t.Fatalf("the first %d games alone: %+v, %v; stopped: %+v", cfg.Games, full, err, r)
	}
}
