package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// Locks on PostgreSQL are hierarchical (docs/store.md, "Locking"):
//
//   - Store.Tx takes pbem's advisory lock EXCLUSIVE: nothing else writes
//     beside it, as on SQLite.
//   - Store.GameTx takes the same lock SHARED, then the row of its game
//     FOR UPDATE: transactions of one game queue on the row, in the
//     order they asked for it (PostgreSQL grants a row lock first come,
//     first served), and transactions of different games run at once.
//
// A GameTx may write only what cannot be in the way of another game's
// transaction: the rows of its own game, and the few writes that commute
// (writeScopes). Any other write method, called in a GameTx, returns
// ErrWiderLock without writing, and GameTx runs the whole function again
// under Store.Tx. On SQLite the one writer orders everything already;
// GameTx checks the same scopes there, so that escalation behaves (and is
// tested) the same on both engines.

// ErrWiderLock reports a write that a game's transaction (Store.GameTx)
// may not make: it is about another game, or about state every game
// shares. GameTx answers it by running its function again under Store.Tx;
// the daemon returns it itself when a mail, looked at under the lock,
// turns out to be about another game than the one locked.
var ErrWiderLock = errors.New("store: the write needs the global lock")

// writeScope says what an exported write method of Tx writes, and so
// whether a game's transaction may call it.
type writeScope int

const (
	// scopeGame: rows of the one game named by the method's argument
	// (games, seats, moves, events, undos, talk, web links, its
	// ended_games row). Allowed in that game's GameTx: its row lock
	// orders them. The method calls tx.writesGame first.
	scopeGame writeScope = iota + 1
	// scopeCommutes: rows that concurrent game transactions may all
	// write, each safe for the reason noted in writeScopes. Allowed in
	// any GameTx.
	scopeCommutes
	// scopeShared: state shared by all games, or several games at once.
	// Only under Store.Tx; in a GameTx it returns ErrWiderLock. The
	// method calls tx.writesShared first.
	scopeShared
)

// writeScopes classifies every exported method of Tx (gamelock_test.go
// fails for a method missing here, and for a method of scopeGame or
// scopeShared that does not check it).
var writeScopes = map[string]writeScope{
	// Bounces (bounces.go): one INSERT ... ON CONFLICT, UPDATE or DELETE
	// of rows keyed by the address, which two transactions run at once
	// without losing either's effect.
	"RecordBounce":       scopeCommutes,
	"HandledUnreachable": scopeCommutes,
	"Probed":             scopeCommutes,
	"Reachable":          scopeCommutes,
	// Budgets and refusals: per address, and taken under a per-address
	// advisory lock (lockAddress), so two games' transactions mailing
	// one address count its units one after the other and cannot both
	// take its last one.
	"Spend":        scopeCommutes,
	"Note":         scopeCommutes,
	"Spent":        scopeCommutes,
	"SpentEach":    scopeCommutes,
	"SpendEach":    scopeCommutes,
	"FreeAt":       scopeCommutes,
	"AllowRefusal": scopeCommutes,
	// A mailbox answered stays answered, whichever transaction says so
	// first (under the same per-address lock).
	"MarkAnswered": scopeCommutes,

	// The inbound log: a concurrent duplicate of the same Message-ID or
	// UID waits for the first insert and fails with ErrDuplicate; the
	// outcome is set on the transaction's own row.
	"RecordInbound":     scopeCommutes,
	"SetInboundOutcome": scopeCommutes,
	// Receive and Settle are RecordInbound and SetInboundOutcome with
	// the cursor (SetCursor).
	"Receive":        scopeCommutes,
	"ReceiveKeeping": scopeCommutes,
	"Settle":         scopeCommutes,
	// The IMAP cursor is written by the one reader that holds the reader
	// lease, one batch after the other; were two transactions to write
	// it at once (a takeover), the cursor would only go back, and what
	// it reads again is recognised by its Message-ID and UID.
	"SetCursor": scopeCommutes,

	// The outbox: Enqueue inserts ON CONFLICT (message_id) DO NOTHING
	// (the game's ended_games row the same), and the message only with
	// the row it inserted (outbox_messages); the marks update one
	// pending row, which a concurrent mark waits for and then finds no
	// longer pending, and RetryDeferred re-checks each row it updates.
	"Enqueue":       scopeCommutes,
	"Post":          scopeCommutes,
	"MarkSent":      scopeCommutes,
	"MarkAllSent":   scopeCommutes,
	"MarkFailed":    scopeCommutes,
	"MarkDead":      scopeCommutes,
	"RetryDeferred": scopeCommutes,
	// The outbox's claims (claim.go): one statement that locks its
	// candidate rows FOR UPDATE SKIP LOCKED and leaves alone a recipient
	// whose earlier mail another node holds or is claiming, so
	// concurrent claimers neither take one row twice nor reorder a
	// recipient's mail; the releases touch only the node's own claims.
	"ClaimOutgoing":     scopeCommutes,
	"ReleaseClaims":     scopeCommutes,
	"ReleaseNodeClaims": scopeCommutes,

	// A player's row made on his first mail: INSERT … ON CONFLICT, whose
	// name is set only while empty.
	"UpsertPlayer": scopeCommutes,

	// A player's calendar feed made on his first game mail: INSERT …
	// ON CONFLICT DO NOTHING, then read, so two at once keep one token.
	"EnsureCalendarFeed": scopeCommutes,

	// The audit log: an insert of a row of its own, reading nothing.
	"AppendAudit": scopeCommutes,

	// Savepoint and LockedGame write nothing themselves, nor do the
	// reads that keep what they read (txmemo.go).
	"Savepoint":             scopeCommutes,
	"LockedGame":            scopeCommutes,
	"EventsKeepingAnswered": scopeCommutes,

	// One game's rows.
	"SetGameStatus":          scopeGame,
	"SetGameAside":           scopeGame,
	"ClearGameAside":         scopeGame,
	"SetGameSetup":           scopeGame,
	"SetThreadSubject":       scopeGame,
	"SaveSnapshot":           scopeGame,
	"AddSeat":                scopeGame,
	"SetSeatJoined":          scopeGame,
	"SetSeatDeclined":        scopeGame,
	"SetSeatResigned":        scopeGame,
	"SetSeatMissed":          scopeGame,
	"SetSeatBank":            scopeGame,
	"SetMoveClock":           scopeGame,
	"SetSeatBot":             scopeGame,
	"SetSeatAutopilot":       scopeGame,
	"SetSeatNotify":          scopeGame,
	"SetDeadline":            scopeGame,
	"NewDecision":            scopeGame,
	"NewDecisionReminded":    scopeGame,
	"SetSeatName":            scopeGame,
	"ClearDeadline":          scopeGame,
	"SetReminder":            scopeGame,
	"SetSeatLastMailedEvent": scopeGame,
	"SetSeatMessageID":       scopeGame,
	"ReplaceSeatAddress":     scopeGame,
	"EnsureLink":             scopeGame,
	"NewLink":                scopeGame,
	"DropLink":               scopeGame,
	"AppendMove":             scopeGame,
	"SetMoveCommand":         scopeGame,
	"AppendEvents":           scopeGame,
	"Talked":                 scopeGame,
	"Talk":                   scopeGame,
	"ProposeUndo":            scopeGame,
	"AgreeUndo":              scopeGame,
	"EndUndo":                scopeGame,

	// Shared: the lobby, players' settings, ratings, vacations (which
	// move deadlines in every game of the player), leases.
	"CreateGame":         scopeShared,
	"SetNoInvitations":   scopeShared,
	"AcquireLease":       scopeShared,
	"ReleaseLease":       scopeShared,
	"SetPlayerName":      scopeShared,
	"SetPlayerTimeZone":  scopeShared,
	"SetPlayerQuiet":     scopeShared,
	"SetPlayerZoneGuess": scopeShared,
	"SetPlayerZoneAsked": scopeShared,
	"SetPlayerNotify":    scopeShared,
	"SetPlayerConfirm":   scopeShared,
	"SetPlayerLanguage":  scopeShared,
	"SetPlayerDigest":    scopeShared,
	"RateGame":           scopeShared,
	"UnrateGame":         scopeShared,
	"ResetRatings":       scopeShared,
	"RekeyRatedSeats":    scopeShared,
	"StartVacation":      scopeShared,
	"ExtendVacation":     scopeShared,
	"EndVacation":        scopeShared,
	"ShiftDeadlines":     scopeShared,
	// A new feed token for a player: shared, so that no other
	// transaction hands out the old one while it changes.
	"NewCalendarFeed": scopeShared,
	// A change of address rewrites the player's rows in every game.
	"AskAddressChange":  scopeShared,
	"DropAddressChange": scopeShared,
	"MoveAddress":       scopeShared,
	"AddAlias":          scopeShared,
}

// noGame is the scope of a Store.CommuteTx: no game's rows, only what
// commutes.
const noGame int64 = -1

// LockedGame is the game a Store.GameTx is about, whose rows it may write;
// 0 in a Store.Tx, which may write anything, and -1 in a Store.CommuteTx,
// which writes no game's rows. The daemon compares it with the game a
// mail turns out to be about under the lock.
func (tx *Tx) LockedGame() int64 { return tx.game }

// writesGame is the first call of a method of scopeGame: in a game's
// transaction it allows the rows of that game only.
func (tx *Tx) writesGame(gameID int64) error {
	if tx.game == 0 || tx.game == gameID {
		return nil
	}
	if tx.game == noGame {
		return fmt.Errorf("%w: %s writes game %d in a transaction of the outbox", ErrWiderLock, caller(), gameID)
	}
	return fmt.Errorf("%w: %s writes game %d in the transaction of game %d", ErrWiderLock, caller(), gameID, tx.game)
}

// writesShared is the first call of a method of scopeShared: it is
// refused in a game's transaction.
func (tx *Tx) writesShared() error {
	if tx.game == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s writes state shared by every game, in the transaction of game %d", ErrWiderLock, caller(), tx.game)
}

// caller names the method that called writesGame or writesShared, for
// the error that says why a transaction was escalated.
func caller() string {
	pc, _, _, ok := runtime.Caller(2)
	if !ok {
		return "a method"
	}
	name := runtime.FuncForPC(pc).Name()
	return "Tx." + name[strings.LastIndexByte(name, '.')+1:]
}

// lockAddress takes the per-address lock, in a game's transaction on
// PostgreSQL, before a budget or refusal count of the address is read
// and changed: two games' transactions that mail one address count its
// units one after the other. The lock is advisory, in its own key space
// (one bigint, where pbem's global lock is two integers), held to the
// end of the transaction; under Store.Tx nothing else writes, and on
// SQLite the one writer orders everything, so neither needs it.
func (tx *Tx) lockAddress(ctx context.Context, address string) error {
	if tx.game == 0 || tx.be.engine() != PostgreSQL || tx.addresses[address] {
		return nil
	}
	// Taken with the transaction's next statement (Tx.later), which is
	// the statement that needs it: the server runs them in order.
	if err := tx.laterLock(ctx, "lock an address", addressLockSQL, addressTables, address); err != nil {
		return err
	}
	if tx.addresses == nil {
		tx.addresses = make(map[string]bool)
	}
	tx.addresses[address] = true
	return nil
}

// addressTables are the tables an address's lock guards: its budget,
// its refusals and its mailbox's row, which the methods that take the
// lock count and write. A read of any other table may go before the
// lock while it waits to be sent (pipeline.go).
var addressTables = []string{"budget", "refusals", "mailboxes"}

// addressLockSQL hashes the schema with the address, so that two
// installations in two schemas do not share locks; two addresses with
// one hash only wait for each other.
const (
	addressLockSQL = addressLockBefore + `?` + addressLockAfter
	// addressLockBefore and addressLockAfter go around the address, or
	// an expression that finds it (MarkAnswered's answeredLockSQL).
	addressLockBefore = `SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ' ' || `
	addressLockAfter  = `, 1885496686))`
)
