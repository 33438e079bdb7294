// Package arena measures the bots' strength: it plays many seeded games
// between one measured player and a table of others, without mail or
// store, and reports the measured player's win rate with a confidence
// interval and the time a bot takes per move.
//
// Games are a pure function of the configuration: game i is set up with
// a seed drawn from Config.Seed and i, the measured player sits at seat
// i mod N (so that no seat's advantage favours it), and every bot and
// random player draws from its own seeded source. Running games in
// parallel changes only the wall time. The clock is read only through
// Config.Now, to time the bots' moves.
package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
)

// Player is who sits at a seat: a bot level (easy, normal, strong), the
// fixed default (Game.Default, what pbem plays at a deadline) or a player
// who picks uniformly among every command the game offers.
type Player string

const (
	Default Player = "default"
	Random  Player = "random"
)

// ParsePlayer reads a player: default, random, easy, normal or strong.
func ParsePlayer(s string) (Player, error) {
	switch Player(s) {
	case Default, Random:
		return Player(s), nil
	}
	if _, err := bot.ParseLevel(s); err == nil {
		return Player(s), nil
	}
	return "", fmt.Errorf("%q is not a player (default, random, easy, normal or strong)", s)
}

// Config is one arena run.
type Config struct {
	Rules   engine.Rules
	Players int    // seats per game
	Games   int    // games to play
	Seed    uint64 // decides every game
	Seat    Player // the measured player, one per game
	Others  Player // every other seat
	// Playouts, when above 0, replaces the budget of every bot level: for
	// tests, and to try budgets.
	Playouts int
	// Parallel is how many games run at once; below 1 means 1.
	Parallel int
	// Now times the bots' moves; nil leaves the times at 0. It is read on
	// the thread that plays the game (each game keeps to one thread), so
	// it may be that thread's CPU clock.
	Now func() time.Time
	// Progress, when not nil, is told after each finished game.
	Progress func(done int)
}

// Report is what a run measured.
type Report struct {
	Games int
	// Wins are the measured player's wins; a win shared by k players
	// counts 1/k.
	Wins float64
	// Rate is Wins/Games; Low and High bound it with 95% confidence
	// (Wilson score interval).
	Rate, Low, High float64
	// Expected is the win rate of a player of the table's own strength:
	// 1/Players.
	Expected float64
	// BotMoves counts the measured player's moves made by a bot (moves
	// with a single legal choice included), and MeanMove and MaxMove
	// their time.
	BotMoves          int
	MeanMove, MaxMove time.Duration
	// Score is the measured player's mean final score, and OthersScore
	// the mean of the other seats'.
	Score, OthersScore float64
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the Wilson score interval of a rate of wins in n trials at
// normal quantile z (1.96 for 95%). It stays inside [0, 1] and is sound
// near 0 and 1, where the normal approximation is not.
func Wilson(wins float64, n int, z float64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := wins / nf
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(centre-half, 0), min(centre+half, 1)
}

// result is one game's outcome for the report.
type result struct {
	win          float64
	score        float64
	othersScore  float64
	moves        int
	spent, worst time.Duration
	err          error
}

// Run plays the games and reports. When ctx ends it plays no more games:
// it returns ctx's error, with the report of the games played so far
// (Report.Games of them) if there are any.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.Rules == nil {
		return Report{}, errors.New("arena: no game")
	}
	if cfg.Players < cfg.Rules.MinPlayers() || cfg.Players > cfg.Rules.MaxPlayers() {
		return Report{}, fmt.Errorf("arena: %s is for %d to %d players, not %d", cfg.Rules.Name(), cfg.Rules.MinPlayers(), cfg.Rules.MaxPlayers(), cfg.Players)
	}
	if cfg.Games < 1 {
		return Report{}, errors.New("arena: no games to play")
	}
	for _, p := range []Player{cfg.Seat, cfg.Others} {
		if _, err := ParsePlayer(string(p)); err != nil {
			return Report{}, fmt.Errorf("arena: %w", err)
		}
	}
	par := max(cfg.Parallel, 1)
	results := make([]result, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One game at a time on this goroutine's own thread, so that
			// a clock of the thread's CPU time (Config.Now) measures the
			// bot's work alone, whatever else the machine runs.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := range next {
				results[i] = play(cfg, i)
				if cfg.Progress != nil {
					mu.Lock()
					done++
					cfg.Progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	var err error
	fed := 0 // games handed to a worker: each is played to its end
feed:
	for ; fed < cfg.Games; fed++ {
		if err = ctx.Err(); err != nil {
			break
		}
		select {
		case next <- fed:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if fed == 0 {
		return Report{}, err
	}

	// Stopped early, the report is that of the games begun, which all
	// ended: the first ones of the run, the same for a seed however
	// late the stop came.
	r := Report{Games: fed, Expected: 1 / float64(cfg.Players)}
	var spent time.Duration
	for i, g := range results[:fed] {
		if g.err != nil {
			return Report{}, fmt.Errorf("arena: game %d: %w", i+1, g.err)
		}
		r.Wins += g.win
		r.Score += g.score
		r.OthersScore += g.othersScore
		r.BotMoves += g.moves
		spent += g.spent
		r.MaxMove = max(r.MaxMove, g.worst)
	}
	n := float64(fed)
	r.Rate = r.Wins / n
	r.Low, r.High = Wilson(r.Wins, fed, z95)
	r.Score /= n
	r.OthersScore /= n
	if r.BotMoves > 0 {
		r.MeanMove = spent / time.Duration(r.BotMoves)
	}
	return r, err
}

// mix spreads a seed and two counters over 64 bits (splitmix64's
// finalizer), so that neighbouring games and seats draw unrelated numbers.
func mix(seed uint64, a, b int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(a+1) + 0xbf58476d1ce4e5b9*uint64(b+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// play plays game i.
func play(cfg Config, i int) result {
	n := cfg.Players
	names := make([]string, n)
	for p := range names {
		names[p] = fmt.Sprintf("p%d", p+1)
	}
	measured := i % n
	g, log, err := cfg.Rules.New(engine.Setup{Players: names, Seed: mix(cfg.Seed, i, -1)})
	if err != nil {
		return result{err: err}
	}
	rng := rand.New(rand.NewPCG(mix(cfg.Seed, i, -2), 0))
	var res result
	for step := 0; ; step++ {
		waiting := g.Waiting()
		if len(waiting) == 0 {
			break
		}
		if step > 100000 {
			return result{err: errors.New("the game does not end")}
		}
		p := waiting[0]
		who := cfg.Others
		if p == measured {
			who = cfg.Seat
		}
		var c engine.Command
		switch who {
		case Default:
			c, _ = g.Default(p)
		case Random:
			c, err = randomCommand(g, p, rng)
		default:
			b := bot.New(bot.Level(who), mix(cfg.Seed, i, p))
			if cfg.Playouts > 0 {
				b.Playouts = cfg.Playouts
			}
			var t0 time.Time
			if cfg.Now != nil {
				t0 = cfg.Now()
			}
			c, err = b.Choose(engine.KnowledgeOf(g, p, log))
			if p == measured {
				var d time.Duration
				if cfg.Now != nil {
					d = cfg.Now().Sub(t0)
				}
				res.moves++
				res.spent += d
				res.worst = max(res.worst, d)
			}
		}
		if err != nil {
			return result{err: fmt.Errorf("%s at seat %d: %w", who, p, err)}
		}
		ev, err := g.Apply(p, c)
		if err != nil {
			return result{err: fmt.Errorf("%s at seat %d: %w", who, p, err)}
		}
		log = append(log, ev...)
	}
	out := g.Result()
	for _, w := range out.Winners {
		if w == measured {
			res.win = 1 / float64(len(out.Winners))
		}
	}
	for p, s := range out.Scores {
		if p == measured {
			res.score = float64(s)
		} else {
			res.othersScore += float64(s) / float64(n-1)
		}
	}
	return res
}

// randomCommand picks one of every command seat may give, uniformly.
func randomCommand(g engine.Game, seat int, rng *rand.Rand) (engine.Command, error) {
	var all []string
	for _, o := range g.Options(seat) {
		all = append(all, o.Commands...)
	}
	if len(all) == 0 {
		return engine.Command{}, errors.New("no options")
	}
	text := all[rng.IntN(len(all))]
	cs, _ := engine.Match(g.Rules().Specs(), g.Players(), engine.Tokens(text), engine.MatchOptions{})
	for _, c := range cs {
		if strings.EqualFold(c.Text, text) {
			return c, nil
		}
	}
	return engine.Command{}, fmt.Errorf("option %q reads as no command", text)
}
