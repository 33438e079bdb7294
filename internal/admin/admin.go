// Package admin is the admin's language and acts: the words an admin
// writes, on the command line (pbem admin) or in a mail to the admin
// address, read into typed acts, and what each act does to one loaded
// game. The daemon lends an act the game through Table, in the
// transaction it loaded it in, and writes the audit, the announcement and
// the players' mail around it (internal/daemon/admin.go).
package admin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
)

// ErrRefused is wrapped by every refusal of an admin act, so that callers
// can tell a mistake in the request from a failure of the service. Its
// text after "refused: " is the sentence the admin reads.
var ErrRefused = errors.New("refused")

// refuse is a refusal the admin reads: say is a sentence of templates.Say.
func refuse(say string) error {
	return fmt.Errorf("%w: %s", ErrRefused, say)
}

// Word names an admin act. Its text is the word an admin writes and what
// the game's audit log keeps (store.Audit.Action).
type Word string

// The admin acts (Usage).
const (
	Extend  Word = "extend"  // move a player's deadline
	Move    Word = "move"    // make a move for a player
	Replace Word = "replace" // give a seat to another address
	Pause   Word = "pause"   // stop the clock
	Resume  Word = "resume"  // start it again
	Abort   Word = "abort"   // end the game for good
	Retry   Word = "retry"   // take up a game set aside as broken
	Undo    Word = "undo"    // take back a player's last command
	Unrate  Word = "unrate"  // take a finished game out of the ratings
)

// help is the word that asks for Usage alone: a line of it in an admin's
// mail is skipped, as every answer ends with the usage.
const help Word = "help"

// EventKind is the kind of the events an admin act writes to a game's
// log (the daemon's EventAdmin).
const EventKind = "admin"

// Act is one admin act, read (Parse, ReadLine) or built by a caller.
type Act interface {
	// Word is the act's word, as the audit log keeps it.
	Word() Word
	// Detail is what the audit log keeps beside the word: the act's
	// arguments as the admin gave them.
	Detail() string
	// Do does the act on the game g lends, for the admin actor. A
	// refusal wraps ErrRefused.
	Do(ctx context.Context, g Table, actor string) (Outcome, error)
}

// Outcome is what an act did, for the daemon to tell the players.
type Outcome struct {
	Announce string // what to announce to every player; "" for nothing
	// Say is Announce as a phrase (templates.Phrases), for each player to
	// read in his language; nil for an announcement in English only.
	Say   *engine.Phrase
	Moved bool // the act applied or took back a move
}

// Table is one loaded game in one transaction, as the daemon lends it to
// an act: the state the acts read, and the daemon's own steps they take.
type Table interface {
	// Row is the game's row as loaded. An act that changes the game's
	// status or broken mark in the store changes it here too, so that
	// the players' mail of the act reads the game as it now is.
	Row() *store.Game
	// Seats are the game's seats as loaded, in seat order; an act that
	// gives a seat to another address changes its entry here too.
	Seats() []store.Seat
	// Names are the seats' names, in seat order.
	Names() []string
	// Store is the transaction the game was loaded in.
	Store() Store
	// Now is the service's clock.
	Now() time.Time
	// Grammar is the seat's command grammar, as his mail is read.
	Grammar(seat int) parser.Grammar
	// Apply applies a command to the game's engine state.
	Apply(seat int, c engine.Command) ([]engine.Event, error)
	// Record appends a move and its events to the game's log.
	Record(seat int, command, source string, events []engine.Event) error
	// FreshDeadline gives the seat a deadline from now, as the game's
	// clock sets one.
	FreshDeadline(seat int) error
	// ExtendedDeadline is the seat's deadline from moved later by by on
	// its player's clock: out of his quiet hours and the game's days off
	// (internal/playclock), and in a game with a time bank, by of the
	// time that counts against it.
	ExtendedDeadline(seat int, from time.Time, by time.Duration) (time.Time, error)
	// NextReminder sets the seat's next reminder before deadline, of a
	// decision that takes span, after the time after.
	NextReminder(seat int, deadline time.Time, span time.Duration, after time.Time) error
	// TakeBack takes back the seat's last command by the engine's rule
	// (engine.Log.Last), ending a players' undo vote under way: an
	// *engine.UndoError when the rule forbids it.
	TakeBack(seat int, actor string) error
	// Unrate takes the game out of its kind's ratings and computes them
	// again without it: store.ErrNotFound when it was not rated.
	Unrate() error
}

// Store is the transaction's writes the acts make themselves, as
// *store.Tx has them.
type Store interface {
	ClearGameAside(ctx context.Context, id int64) error
	SetGameStatus(ctx context.Context, id int64, s store.Status) error
	SetDeadline(ctx context.Context, gameID int64, seat int, t time.Time) error
	ClearDeadline(ctx context.Context, gameID int64, seat int) error
	ReplaceSeatAddress(ctx context.Context, gameID int64, seat int, address, token string) error
	DropLink(ctx context.Context, gameID int64, seat int) error
	UpsertPlayer(ctx context.Context, address, name string) (store.Player, error)
	SetSeatLastMailedEvent(ctx context.Context, gameID int64, seat int, eventID int64) error
	SetSeatJoined(ctx context.Context, gameID int64, seat int) error
	SetSeatBot(ctx context.Context, gameID int64, seat int, level string) error
	SetSeatBank(ctx context.Context, gameID int64, seat int, bank time.Duration) error
}

// *store.Tx is the Store the daemon lends.
var _ Store = (*store.Tx)(nil)
