// Package loaded is a game loaded inside a transaction: read from the
// store and rebuilt in its engine, from its snapshot or by replaying its
// move log. It records the moves applied to it, saves its snapshot,
// replays its log up to a point (for an undo, the bots and the web
// pages), renames a player in its set-up and log, exports it as a
// transcript, and builds the one model of where it stands that a game
// mail, a digest line and a page show (Standing).
//
// It takes what it needs from the daemon as plain values: the games as a
// lookup func, the time as a value, the transaction as a *store.Tx. It
// imports engine, store and templates, never the daemon or the
// configuration (templates/layering_test.go).
package loaded

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Games finds a game's rules by its name; engine/games.Lookup is one.
type Games = func(name string) (engine.Rules, bool)

// Reader is what loading and exporting read of the store: a transaction
// (*store.Tx) or the store itself (*store.Store), for an export outside
// one.
type Reader interface {
	Game(ctx context.Context, id int64) (store.Game, error)
	Seats(ctx context.Context, gameID int64) ([]store.Seat, error)
	Moves(ctx context.Context, gameID, afterSeq int64) ([]store.Move, error)
}

// Game is one game loaded inside a transaction.
type Game struct {
	Row   store.Game
	Seats []store.Seat
	Rules engine.Rules
	State engine.Game  // the game as the engine holds it now
	Names []string     // the seats' names, in seat order
	Acted map[int]bool // seats that made a move in this transaction
	// FirstMove is the seq of each seat's first move recorded in this
	// transaction (Record): the move that ended its decision, which a
	// time bank's clock is recorded on.
	FirstMove map[int]int64
	// Inbound is the mail whose commands are being applied, recorded with
	// each move; 0 for moves no mail made.
	Inbound int64
	// RatingChanges are what the game did to each seat's rating, by
	// seat, once it has ended and been rated in this transaction: its
	// end mails tell them. nil for a game not rated now.
	RatingChanges map[int]templates.RatingChange
	// log is the engine's log of the game after logPly commands, as of
	// the move logSeq (EngineLog): what a bot reads.
	log     []engine.Event
	logSeq  int64
	logPly  int
	logSeed uint64 // the stored set-up's seed, which the bots' seeds come from
	// states is where the game was loaded from and keeps what it saves
	// (States); nil keeps nothing.
	states *States
}

// Load reads a game and rebuilds its engine state: from the snapshot
// when it is current, else from the set-up and the command log. A game
// whose stored state does not rebuild fails with an *Error: trying again
// will not help, and the daemon sets the game aside.
func Load(ctx context.Context, tx Reader, games Games, gameID int64) (*Game, error) {
	return (*States)(nil).Load(ctx, tx, games, gameID)
}

// Load is the package's Load, with the snapshot's state from s when s
// holds it (States).
func (s *States) Load(ctx context.Context, tx Reader, games Games, gameID int64) (*Game, error) {
	row, err := tx.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return s.LoadRow(ctx, tx, games, row)
}

// LoadRow is Load for a caller that has read the game's row already, in
// the same transaction: the row, with its snapshot, is not read again.
func LoadRow(ctx context.Context, tx Reader, games Games, row store.Game) (*Game, error) {
	return (*States)(nil).LoadRow(ctx, tx, games, row)
}

// LoadRow is the package's LoadRow, with the snapshot's state from s
// when s holds it (States).
func (s *States) LoadRow(ctx context.Context, tx Reader, games Games, row store.Game) (*Game, error) {
	gameID := row.ID
	rules, ok := games(row.Kind)
	if !ok {
		return nil, CannotGoOn(gameID, nil, "%s", templates.Say.UnknownGameKind(row.Kind))
	}
	seats, err := tx.Seats(ctx, gameID)
	if err != nil {
		return nil, err
	}
	g := &Game{Row: row, Seats: seats, Rules: rules, Acted: map[int]bool{}, FirstMove: map[int]int64{}, states: s}
	for _, st := range seats {
		g.Names = append(g.Names, st.Name)
	}
	if row.Snapshot != nil && row.SnapshotSeq == row.LastSeq {
		g.State, err = s.decode(rules, gameID, row.Snapshot)
		if err != nil {
			return nil, CannotGoOn(gameID, err, "%s", templates.Say.SavedStateDoesNotLoad())
		}
		return g, nil
	}
	var setup engine.Setup
	if err := json.Unmarshal(row.Setup, &setup); err != nil {
		return nil, CannotGoOn(gameID, err, "%s", templates.Say.SetUpDoesNotRead())
	}
	if _, _, err := rules.New(setup); err != nil {
		return nil, CannotGoOn(gameID, err, "%s", templates.Say.SetUpRefusedByRules())
	}
	moves, err := tx.Moves(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	l, err := ReplayMoves(rules, setup, moves)
	if err != nil {
		// The error names the move, never its command: the command and
		// the engine's reason may name a hidden card.
		return nil, CannotGoOn(gameID, err, "%s", templates.Say.MoveLogDoesNotReplayBecause(err))
	}
	g.State = l.Game()
	return g, nil
}

// Reload reads the game again after something in this transaction may
// have changed it (a rename, a vacation), keeping what the mail did at
// the table so far: its inbound mail and the seats that acted.
func (g *Game) Reload(ctx context.Context, tx Reader, games Games) error {
	fresh, err := g.states.Load(ctx, tx, games, g.Row.ID)
	if err != nil {
		return err
	}
	fresh.Inbound, fresh.Acted, fresh.FirstMove = g.Inbound, g.Acted, g.FirstMove
	*g = *fresh
	return nil
}

// Error is a failure of one game rather than of the service: its stored
// state does not load, or the engine refuses what pbem itself asks of
// it. Trying again does not help; the daemon sets the game aside as
// broken (internal/daemon/aside.go).
//
// Its text is what admins read and what is logged and stored: it names no
// command and no engine reason, which may name a hidden card ("play 15").
// The cause stays in the chain for errors.Is, never in the text; the admin
// sees the whole story with `pbem export GAME | pbem replay /dev/stdin`.
type Error struct {
	GameID int64
	What   string // why, in words safe for the admins and the log
	cause  error
}

func (e *Error) Error() string { return fmt.Sprintf("game %d: %s", e.GameID, e.What) }
func (e *Error) Unwrap() error { return e.cause }

// CannotGoOn wraps a failure of game id.
func CannotGoOn(id int64, cause error, format string, args ...any) error {
	return &Error{GameID: id, What: fmt.Sprintf(format, args...), cause: cause}
}
