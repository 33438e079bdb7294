package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/arena"
)

func runArena(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	game := fs.String("game", "felix", "the game: "+joinNames(games.Names()))
	players := fs.Int("players", 4, "players per game")
	n := fs.Int("games", 1000, "games to play")
	seed := fs.Uint64("seed", 1, "the seed that decides every game")
	seat := fs.String("seat", "strong", "the measured player, one seat per game: easy, normal, strong, default or random")
	others := fs.String("others", "default", "every other seat: easy, normal, strong, default or random")
	playouts := fs.Int("playouts", 0, "when above 0, the bots' playouts per move instead of their level's")
	parallel := fs.Int("parallel", 1, "games played at once")
	clock := fs.String("clock", "cpu", "how bot moves are timed: cpu (the CPU time of the game's thread: the cost on one core, whatever the load; Linux only) or wall")
	setUsage(fs, "usage: pbem arena [--game G] [--players P] [--games N] [--seed S] [--seat PLAYER] [--others PLAYER] [--playouts N] [--parallel K] [--clock cpu|wall]")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return usageError("arena takes no arguments")
	}
	rules, ok := games.Lookup(*game)
	if !ok {
		return usageError("no game %q (games: %s)", *game, joinNames(games.Names()))
	}
	cfg := arena.Config{Rules: rules, Players: *players, Games: *n, Seed: *seed, Playouts: *playouts, Parallel: *parallel, Now: time.Now}
	switch *clock {
	case "cpu":
		now, ok := threadCPU()
		if !ok {
			return usageError("--clock cpu: this system does not tell a thread's CPU time; use --clock wall")
		}
		cfg.Now = now
	case "wall":
	default:
		return usageError("--clock: %q is neither cpu nor wall", *clock)
	}
	var err error
	if cfg.Seat, err = arena.ParsePlayer(*seat); err != nil {
		return usageError("--seat: %v", err)
	}
	if cfg.Others, err = arena.ParsePlayer(*others); err != nil {
		return usageError("--others: %v", err)
	}
	if *parallel == 1 {
		// One game at a time on one core: with the wall clock the bots'
		// move times are then what one core gives (on an idle machine).
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	start := time.Now()
	r, err := arena.Run(ctx, cfg)
	if err != nil && (ctx.Err() == nil || r.Games == 0) {
		return err
	}
	wall := time.Since(start)
	if err != nil {
		// Stopped (a signal, or timeout(1)): report the games played.
		fmt.Fprintf(e.stdout, "stopped early: %d of %d games played\n", r.Games, cfg.Games)
	}
	fmt.Fprintf(e.stdout, "%s, %d players: %s at one seat against %s at the others, seed %d\n", rules.Title(), cfg.Players, cfg.Seat, cfg.Others, cfg.Seed)
	fmt.Fprintf(e.stdout, "games        %d\n", r.Games)
	fmt.Fprintf(e.stdout, "wins         %.1f (ties shared)\n", r.Wins)
	fmt.Fprintf(e.stdout, "win rate     %.1f%% (95%% CI %.1f%%..%.1f%%); equal strength %.1f%%\n", 100*r.Rate, 100*r.Low, 100*r.High, 100*r.Expected)
	fmt.Fprintf(e.stdout, "mean score   %.2f (others %.2f)\n", r.Score, r.OthersScore)
	if r.BotMoves > 0 {
		fmt.Fprintf(e.stdout, "bot moves    %d: mean %s, max %s (%s time)\n", r.BotMoves, ms(r.MeanMove), ms(r.MaxMove), *clock)
	}
	fmt.Fprintf(e.stdout, "wall time    %s\n", wall.Round(time.Millisecond))
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
