// Package bot is pbem's computer player, for every game whose Rules
// implement engine.Sampling. It knows no game: it plays through the
// engine.Playout of a game's fast path.
//
// # What it may see
//
// A bot is given an engine.Knowledge, never a Game: the seat's view and the
// log entries visible to that seat (engine.KnowledgeOf drops the rest).
// The knowledge holds no path to the true state, so the bot cannot read
// what its seat cannot see; a test changes the hidden information of real
// games and checks that the bot's move stays the same.
//
// # How it chooses
//
// The search is determinized Monte Carlo tree search over information
// sets (ISMCTS), with the tree cut to its root: each iteration draws a
// fresh determinization of the hidden information from the game's
// Sampler (consistent with what the seat has seen), picks one of the
// seat's moves by UCB1 over the statistics gathered across all the
// determinizations, plays it, lets the game's cheap policy play every
// seat (the bot's included) to the end, and adds the Playout's Reward to
// that move. A deeper tree would have to share nodes between
// determinizations in which different cards are hidden, and several
// seats move at once (Felix's placing): the root alone keeps the search
// simple and its statistics sound, and the game's policy stands in for
// the later decisions. The move played most often is chosen.
//
// Moves that several seats may make at once (Felix's placing) are
// decided for the bot's seat alone; in the playouts the other seats move
// by the policy.
//
// # Budget and determinism
//
// The budget is a number of playouts, not a time, so a move depends only
// on the knowledge, the level and the seed: the random source is a PCG
// seeded with the seed and a hash of the knowledge's log, and no clock or
// map order is read. A budget of zero plays the game's fixed default
// (what Game.Default plays at a deadline).
package bot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/pbem/pbem/engine"
)

// Level is a bot's strength.
type Level string

const (
	// Easy searches little and chooses with noise: it often plays a
	// move that is not its best.
	Easy Level = "easy"
	// Normal searches a tenth of Strong's playouts.
	Normal Level = "normal"
	// Strong searches ten times Normal's playouts; its slowest moves
	// stay well under 200 ms on one core (BENCHMARKS.md).
	Strong Level = "strong"
)

// Levels lists the levels from the weakest.
func Levels() []Level { return []Level{Easy, Normal, Strong} }

// ParseLevel reads a level's name: easy, normal or strong.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("%q is not a bot level (easy, normal or strong)", s)
}

// Budgets: playouts per move. Strong's keeps the slowest moves (Gracias
// with 6 players, early on) under a quarter of the 200 ms a move may take
// on one core of the benchmark machine, room for a slower machine; in a
// trial against random players 20,000 playouts won no more often than
// 6,000 (BENCHMARKS.md, "Bots: strength").
const (
	easyPlayouts   = 60
	normalPlayouts = 600
	strongPlayouts = 6000
)

// easyTemperature is the softmax temperature of Easy's choice over the
// moves' mean rewards (which run from 0 to 1): at 0.1 a move 0.1 worse
// than the best is chosen e^-1 as often.
const easyTemperature = 0.1

// explore is UCB1's exploration constant. Rewards lie in [0, 1]; a
// constant below the textbook √2 spends more of a small budget on the
// moves that look best, which suits a choice by visits.
const explore = 0.7

// Bot is a player. The zero value plays the game's fixed default.
type Bot struct {
	// Playouts is the budget per move; 0 plays the fixed default.
	Playouts int
	// Temperature, when above 0, makes the choice a softmax over the
	// moves' mean rewards instead of the most-visited move: noise for a
	// weaker player.
	Temperature float64
	// Seed is the random seed: the same knowledge and seed give the same
	// move.
	Seed uint64
}

// New returns a bot of level l with the given seed.
func New(l Level, seed uint64) Bot {
	switch l {
	case Easy:
		return Bot{Playouts: easyPlayouts, Temperature: easyTemperature, Seed: seed}
	case Normal:
		return Bot{Playouts: normalPlayouts, Seed: seed}
	}
	return Bot{Playouts: strongPlayouts, Seed: seed}
}

// ErrNotSupported says that a game's Rules do not implement
// engine.Sampling: no bot can play it (Game.Default still can).
var ErrNotSupported = errors.New("bot: the game does not support bots")

// ErrNotWaiting says that the game does not wait on the knowledge's seat.
var ErrNotWaiting = errors.New("bot: the game does not wait on this seat")

// Move is the move a bot of level l with seed makes for seat in g, whose
// log so far (every event, in order) is log. It reads g only through
// engine.KnowledgeOf.
func Move(g engine.Game, seat int, log []engine.Event, l Level, seed uint64) (engine.Command, error) {
	return New(l, seed).Choose(engine.KnowledgeOf(g, seat, log))
}

// Choose is the bot's command for the knowledge's seat.
func (b Bot) Choose(k engine.Knowledge) (engine.Command, error) {
	sampling, ok := k.Rules().(engine.Sampling)
	if !ok {
		return engine.Command{}, ErrNotSupported
	}
	sampler, err := sampling.NewSampler(k)
	if err != nil {
		return engine.Command{}, err
	}
	seat := k.Seat()
	rng := rand.New(rand.NewPCG(b.Seed, streamOf(k)))
	first := sampler.Sample(rng)
	if first.Waiting()&(1<<uint(seat)) == 0 {
		return engine.Command{}, ErrNotWaiting
	}
	if b.Playouts <= 0 {
		return first.Command(seat, first.Default(seat)), nil
	}
	moves := first.Moves(seat, nil)
	if len(moves) == 0 {
		return engine.Command{}, fmt.Errorf("bot: the game offers seat %d no move", seat)
	}
	if len(moves) == 1 {
		return first.Command(seat, moves[0]), nil
	}
	st := search(sampler, seat, moves, b.Playouts, rng)
	return first.Command(seat, moves[b.pick(st, rng)]), nil
}

// stat is what the playouts told of one move.
type stat struct {
	visits int
	reward float64
}

func (s stat) mean() float64 { return s.reward / float64(s.visits) }

// search runs budget playouts from fresh determinizations and returns
// the statistics of each of seat's moves.
func search(sampler engine.Sampler, seat int, moves []engine.Move, budget int, rng *rand.Rand) []stat {
	st := make([]stat, len(moves))
	for it := 0; it < budget; it++ {
		i := it
		if it >= len(moves) {
			i = ucb(st, it)
		}
		pos := sampler.Sample(rng)
		pos.Play(seat, moves[i])
		for w := pos.Waiting(); w != 0; w = pos.Waiting() {
			p := bits.TrailingZeros64(w)
			pos.Play(p, pos.Policy(p, rng))
		}
		st[i].visits++
		st[i].reward += pos.Reward(seat)
	}
	return st
}

// ucb picks the move with the best upper confidence bound after total
// playouts; every move has been played once.
func ucb(st []stat, total int) int {
	best, bestV := 0, math.Inf(-1)
	logN := math.Log(float64(total))
	for i, s := range st {
		v := s.mean() + explore*math.Sqrt(logN/float64(s.visits))
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// pick chooses the move to play: the most visited (the first on a tie),
// or with a temperature a softmax over the mean rewards.
func (b Bot) pick(st []stat, rng *rand.Rand) int {
	if b.Temperature > 0 {
		top := math.Inf(-1)
		for _, s := range st {
			if s.visits > 0 {
				top = max(top, s.mean())
			}
		}
		w := make([]float64, len(st))
		sum := 0.0
		for i, s := range st {
			if s.visits > 0 {
				w[i] = math.Exp((s.mean() - top) / b.Temperature)
				sum += w[i]
			}
		}
		x := rng.Float64() * sum
		for i := range w {
			if x < w[i] {
				return i
			}
			x -= w[i]
		}
	}
	best := 0
	for i, s := range st {
		if s.visits > st[best].visits {
			best = i
		}
	}
	return best
}

// streamOf is the random stream of a decision: a hash of the seat and its
// visible log, so that two decisions of one game (or of one seed in two
// games) draw different numbers, and the same knowledge the same ones.
// Of each entry's text it hashes only the numbers (bids, positions,
// numbered cards), never the words: a player's name is a word, and a
// player who renames himself mid-game changes every line of the log a
// replay of the export rebuilds, which must still give each bot line
// (transcript.CheckBots).
func streamOf(k engine.Knowledge) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00", k.Seat())
	for _, e := range k.Log() {
		fmt.Fprintf(h, "%d\x00%s\x00", e.To, e.Kind)
		for _, n := range numbers(e.Text) {
			fmt.Fprintf(h, "%s\x01", n)
		}
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// numbers are the tokens of text that are numbers ("5", "-8"): the runs of
// letters, digits, '_' and '-' that start with a digit or with '-' and a
// digit. A name starts with a letter, so none is ever one of them.
func numbers(text string) []string {
	var out []string
	isWord := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	for i := 0; i < len(text); {
		if !isWord(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWord(text[j]) {
			j++
		}
		tok := text[i:j]
		if tok[0] >= '0' && tok[0] <= '9' || len(tok) > 1 && tok[0] == '-' && tok[1] >= '0' && tok[1] <= '9' {
			out = append(out, tok)
		}
		i = j
	}
	return out
}
