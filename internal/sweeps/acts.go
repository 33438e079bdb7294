// Package sweeps is the turn loop's timed work: the schedule of the
// deadline sweep, its order (returns from vacation, lapsed undos, default
// moves, reminders, digests), finding what fell due (the store's
// queries), doing each item in a transaction of its own with its tries,
// and retention.
//
// What an item's work is — a game command, a mail to compose — is the
// daemon's: it hands the Sweeper its Acts, and sweeps never imports it.
package sweeps

import (
	"context"

	"github.com/pbem/pbem/store"
)

// Unit is one due item's work.
type Unit interface {
	// Do does the work inside tx and reports whether the item counts in
	// what the sweep reports (a move made, a mail queued). It may be
	// called again, in a new transaction, after a failed one: it starts
	// what it gathers afresh.
	Do(ctx context.Context, tx *store.Tx) (counts bool, err error)
	// Committed is called once the transaction of Do committed (to wake
	// the sender, to report a game set aside).
	Committed()
}

// Acts are the works a sweep does, one Unit per item, under the item's
// key (its failures are counted under it, and the Message-IDs of its
// mails are derived from it), and what a sweep does with an item that
// failed tries.Max times.
type Acts interface {
	// Return ends the vacation of address, which ran out, and tells
	// his tables.
	Return(key, address string) Unit
	// LapseUndo ends an undo whose time ran out.
	LapseUndo(key string, u store.UndoProposal) Unit
	// DefaultMove makes the game's default move for a seat whose
	// deadline passed.
	DefaultMove(key string, d store.Deadline) Unit
	// Remind writes a seat's due reminder step.
	Remind(key string, r store.Reminder) Unit
	// Digest writes a player's due digest.
	Digest(key string, d store.DueDigest) Unit

	// SetGameAside sets a game aside as broken, in a transaction of its
	// own, after its deadline's or reminder's work failed tries.Max
	// times: cause is the last failure, and why says which work failed.
	SetGameAside(ctx context.Context, gameID int64, cause error, why string) error
	// SkipDigest gives up a player's digest due at d.Due, in a
	// transaction of its own, after it failed tries.Max times: his next
	// one is due a day later.
	SkipDigest(ctx context.Context, d store.DueDigest) error
}

// Kind is a kind of due work that can be set aside; its text is the
// metrics label the daemon reports it under.
type Kind string

// The kinds of work set aside after tries.Max.
const (
	KindDeadline Kind = "deadline" // a seat's deadline: its game is set aside
	KindReminder Kind = "reminder" // a seat's reminder: its game is set aside
	KindDigest   Kind = "digest"   // a player's day's digest: skipped
)
