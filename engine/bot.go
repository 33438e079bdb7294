package engine

import "math/rand/v2"

// This file is the seam between a game and the game-agnostic bot player
// (engine/bot). It lives here, not in engine/bot, because a game package
// imports only engine: the games implement these interfaces and engine/bot
// uses them, and neither knows the other.

// Knowledge is what one seat knows of a game: its view, the log entries
// it was allowed to read, the players' names and the game's rules. It is
// all a bot gets. Its fields are unexported and it holds no reference to
// the Game it was made from, so code given a Knowledge cannot reach the
// true state: the type system keeps a bot from peeking. The only way to
// make one from a game is KnowledgeOf, which copies what the seat may see
// and nothing else.
type Knowledge struct {
	rules   Rules
	seat    int
	players []string
	view    any
	log     []Event
}

// KnowledgeOf is what seat knows of g, whose log (its opening and every
// applied command's events, in order) is log: g.View(seat), and the
// entries of log that are VisibleTo(seat). Entries meant for other seats
// are dropped here, so they never reach a bot.
func KnowledgeOf(g Game, seat int, log []Event) Knowledge {
	k := Knowledge{
		rules:   g.Rules(),
		seat:    seat,
		players: g.Players(),
		view:    g.View(seat),
	}
	for _, e := range log {
		if e.VisibleTo(seat) {
			k.log = append(k.log, e)
		}
	}
	return k
}

// Rules is the game's rules: a description, with no game state.
func (k Knowledge) Rules() Rules { return k.rules }

// Seat is the seat whose knowledge this is.
func (k Knowledge) Seat() int { return k.seat }

// Players is the players' names in seat order.
func (k Knowledge) Players() []string { return append([]string(nil), k.players...) }

// View is Game.View(Seat()) at the time the knowledge was taken: the
// game's own view type, which its Sampling implementation reads.
func (k Knowledge) View() any { return k.view }

// Log is the log entries the seat may see, in order.
func (k Knowledge) Log() []Event { return append([]Event(nil), k.log...) }

// Sampling is implemented by the Rules of a game that bots can play.
type Sampling interface {
	// NewSampler reads k once (a game may need its log as well as its
	// view, for what the seat has seen earlier) and returns a Sampler
	// of the positions consistent with it. It fails only on knowledge
	// that no game of these rules could give.
	NewSampler(k Knowledge) (Sampler, error)
}

// Sampler draws determinizations of one seat's knowledge.
type Sampler interface {
	// Sample returns a complete position consistent with everything the
	// seat knows, the hidden information drawn with rng among the
	// possibilities (uniformly, unless the game documents otherwise).
	// Equal rng states give equal positions.
	Sample(rng *rand.Rand) Playout
}

// Move is a move in a game's compact form, as a Playout encodes it.
type Move uint32

// Playout is a game position in the game's fast form, for a bot's
// simulations. Its methods may assume they are called legally: Play only
// with a move from Moves, Default or Policy, and for a seat in Waiting.
type Playout interface {
	// Waiting has a bit for each seat the position waits on; 0 when the
	// game is over.
	Waiting() uint64
	// Moves appends the moves a bot considers for seat: legal moves,
	// possibly fewer than all of them where the game documents why. It
	// appends at least one move for a waiting seat.
	Moves(seat int, buf []Move) []Move
	// Default is the move the game's fixed default (Game.Default) makes
	// for seat; it depends only on what seat can see.
	Default(seat int) Move
	// Policy is the move a playout makes for seat: cheap and random.
	Policy(seat int, rng *rand.Rand) Move
	// Play applies seat's move.
	Play(seat int, m Move)
	// Reward is the outcome for seat once the game is over, from 0 (a
	// clear loss) to 1 (a win alone).
	Reward(seat int) float64
	// Command writes seat's move as the command to Apply to the real game.
	Command(seat int, m Move) Command
	// Clone returns an independent copy.
	Clone() Playout
}
