// Package engine is the game-agnostic heart of pbem: the interface every game
// implements and the rest of the service uses without knowing which game it
// is driving.
//
// The design separates three things that a table mixes up:
//
//   - Chance is resolved once, at set-up. A Setup with a seed becomes a Game
//     whose Setup method returns the same set-up with every random choice
//     written out (no seed needed). Replaying commands on it never draws a
//     random number again, so a game is a pure function of its explicit
//     set-up and its command log.
//   - What a player may know is a View: a plain value that serializes and
//     holds exactly that player's information and nothing more. Everything
//     meant for one player only (a private log entry, a view) is addressed
//     to a seat.
//   - What a player may do is a list of Options built from the game's own
//     command grammar (Specs), so error replies, help texts and the mail
//     parser can list and read commands without a game-specific branch.
//
// Engine packages do no I/O, read no clock and import nothing else of pbem.
package engine

import (
	"fmt"
	"strings"
)

// Public addresses an Event to every player, and asks View for what a
// spectator may see.
const Public = -1

// Others addresses an event to every seat but seat: Others(seat) ==
// -2-seat. It is for the public side of an act whose actor is told the
// same thing privately in his own words ("You put your rabbit ..."), so
// that nobody reads one event twice. An Others event is seen by every
// other seat and by spectators, so it must hold only public information.
// Others(Public) is Public.
func Others(seat int) int { return -2 - seat }

// Rules describes one game: its name, its command language and how to set
// up a new game or restore a saved one.
type Rules interface {
	// Name is the game's short identifier, as written in transcripts
	// ("felix").
	Name() string
	// Title is the game's full name for people.
	Title() string
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers() int
	MaxPlayers() int
	// Specs is the game's whole command language.
	Specs() []Spec
	// SetupKeys lists the game-specific set-up directives a transcript may
	// hold, beyond the common game, players, seed and start.
	SetupKeys() []string
	// New sets up a game. Every random choice not fixed by the set-up is
	// made with s.Seed. The events are those of the opening (private ones
	// included).
	New(s Setup) (Game, []Event, error)
	// Unmarshal restores a game saved with Game.MarshalJSON.
	Unmarshal(data []byte) (Game, error)
}

// Setup is everything needed to start a game.
type Setup struct {
	Players []string // seat order, clockwise
	Seed    uint64   // decides every random choice that nothing below fixes
	Start   string   // optional: the start player (game-specific meaning)
	Lines   []SetupLine
}

// SetupLine is one game-specific set-up directive, such as
// "removed alice=-8 bob=rabbit" or "deck 1 red blue ...".
type SetupLine struct {
	Key  string
	Args []string
}

func (l SetupLine) String() string {
	if len(l.Args) == 0 {
		return l.Key
	}
	return l.Key + " " + strings.Join(l.Args, " ")
}

// Game is one game in progress. Seats are numbered from 0 in the order of
// Players. Methods that take a seat accept Public where noted.
type Game interface {
	Rules() Rules
	Players() []string
	// Setup is the explicit set-up that rebuilds this game from scratch
	// without a seed: every choice chance made is written out.
	Setup() Setup
	// Waiting lists the seats the game waits on, in seat order. Several
	// seats wait at once where the rules let them act simultaneously. It
	// is empty when the game is finished.
	Waiting() []int
	// Options lists what seat may do now; nil when the game does not wait
	// on seat.
	Options(seat int) []Option
	// Apply applies one command by one seat. An illegal command returns an
	// *IllegalError and changes nothing. The events describe what
	// happened, in order.
	Apply(seat int, c Command) ([]Event, error)
	// Default is the command the service makes for a waiting seat when its
	// deadline passes. ok is false when the game does not wait on seat.
	Default(seat int) (c Command, ok bool)
	// View is what seat may see now, or what everyone may see for Public.
	// It is a plain value that marshals to JSON.
	View(seat int) any
	// Result reports whether the game is over, the scores and winners.
	Result() Result
	// Summary is the game's state for `pbem replay --json`.
	Summary() any
	// Clone returns an independent copy.
	Clone() Game
	// MarshalJSON saves the whole state; Rules.Unmarshal restores it.
	MarshalJSON() ([]byte, error)
}

// Result is the outcome of a game, or of a game so far.
type Result struct {
	Finished bool
	Scores   []int // by seat; final only when Finished
	Winners  []int // seats; several on a shared win; empty until finished
}

// Event is one entry of a game's log.
type Event struct {
	To   int    `json:"to"`   // Public, the only seat that may see it, or Others(seat): all but seat
	Kind string `json:"kind"` // machine-readable kind, e.g. "bid", "reveal"
	Text string `json:"text"` // plain words with names, in English
	// Say is the same sentence as a phrase, for each reader to read in
	// his own language: Text is Say.English(). nil for an event written
	// as text only (the service's own, and those stored before phrases).
	Say *Phrase `json:"say,omitempty"`
}

// VisibleTo reports whether seat may see e. VisibleTo(Public) is what a
// spectator may see: the public log, Others events included (they hold
// only public information).
func (e Event) VisibleTo(seat int) bool {
	switch {
	case e.To == Public || e.To == seat:
		return true
	case e.To < Public:
		return e.To != Others(seat)
	}
	return false
}

// Option is one kind of command a seat may give now.
type Option struct {
	Spec string `json:"spec"` // the Spec's name
	// Text shows the option compactly with its valid arguments:
	// "bid 5..12", "play -8|3|rabbit", "keep red|blue give alice|carol".
	Text string `json:"text"`
	// Commands lists every concrete command of this option, ready to copy.
	Commands []string `json:"commands"`
}

// IllegalError is returned for a command that the rules do not allow now.
type IllegalError struct {
	Player  string // who tried
	Command string // what was tried, canonical where it could be read
	// Reason is why not, in plain words addressed to the player who
	// tried, who is its reader: "you have only 13 mice", never "alice has
	// only 13 mice".
	Reason  string
	Options []Option // what the player can do instead
}

// Error speaks to the player, as Reason does, so that the second person
// stays true in a replay's error line: "bob, you cannot bid 3: you have
// passed this round".
func (e *IllegalError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, you cannot %s: %s", e.Player, e.Command, e.Reason)
	if len(e.Options) > 0 {
		b.WriteString(" (valid now: ")
		b.WriteString(OptionsText(e.Options))
		b.WriteString(")")
	}
	return b.String()
}

// OptionsText joins options for a message: "bid 5..12, pass".
func OptionsText(opts []Option) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.Text
	}
	return strings.Join(parts, ", ")
}

// Seat finds a player's seat by exact name; -1 if absent.
func Seat(g Game, name string) int {
	for i, p := range g.Players() {
		if p == name {
			return i
		}
	}
	return -1
}
