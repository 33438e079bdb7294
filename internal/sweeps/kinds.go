package sweeps

import (
	"context"
	"fmt"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Each kind of due work is found by a query of the store and done item
// by item through runDue. The items are as read before: another node may
// have done one meanwhile, so each Unit reads its item again inside its
// transaction and acts only if it is still due.

// sweepReturns ends the vacations that ran out, each in a transaction of
// its own: the player is no longer away, and his tables are told.
func (sw *Sweeper) sweepReturns(ctx context.Context) error {
	back, err := sw.store.Returned(ctx, sw.now())
	if err != nil {
		return err
	}
	return sw.ReturnDue(ctx, back)
}

// ReturnDue ends the vacations of the players found back before
// (Acts.Return). Another node may have ended one meanwhile, the player
// sent back, or he extended it: the unit reads his current vacation
// again, and ends it only if he is still away and its end has come.
func (sw *Sweeper) ReturnDue(ctx context.Context, back []string) error {
	_, _, err := runDue(ctx, sw, back, dueWork[string]{
		key:  func(addr string) string { return fmt.Sprintf("back:%s:%d", addr, sw.now().Unix()) },
		unit: sw.acts.Return,
		wrap: func(addr string, err error) error {
			return fmt.Errorf("daemon: end of the vacation of %s: %w", addr, err)
		},
	})
	return err
}

// sweepUndos ends the undos whose time ran out, each in a transaction of
// its own, and mails the tables.
func (sw *Sweeper) sweepUndos(ctx context.Context) error {
	due, err := sw.store.ExpiredUndos(ctx, sw.now())
	if err != nil {
		return err
	}
	return sw.LapseDue(ctx, due)
}

// LapseDue ends the undos found expired before (Acts.LapseUndo). Another
// node may have ended one meanwhile, or the table answered it: the unit
// reads the game's pending undo again inside its transaction, and ends
// it only if it is still the one found.
func (sw *Sweeper) LapseDue(ctx context.Context, due []store.UndoProposal) error {
	_, _, err := runDue(ctx, sw, due, dueWork[store.UndoProposal]{
		key: func(u store.UndoProposal) string {
			return fmt.Sprintf("undo-lapse:%d:%d", u.GameID, u.ProposedAt.Unix())
		},
		unit: sw.acts.LapseUndo,
		game: func(u store.UndoProposal) int64 { return u.GameID },
		wrap: func(u store.UndoProposal, err error) error {
			return fmt.Errorf("daemon: undo of game %d: %w", u.GameID, err)
		},
	})
	return err
}

// MoveDue makes the default moves of the deadlines due, as read before
// (Acts.DefaultMove), skipping the keys in failed and adding those that
// fail now. Another node may have made one meanwhile, or the player
// moved: the unit reads the seat again inside its transaction, and moves
// only if its deadline is still passed. It returns the moves made and
// the deadlines tried.
func (sw *Sweeper) MoveDue(ctx context.Context, due []store.Deadline, failed map[string]bool) (made, seen int, err error) {
	return runDue(ctx, sw, due, dueWork[store.Deadline]{
		key: func(d store.Deadline) string {
			return fmt.Sprintf("deadline:%d:%d:%d", d.GameID, d.Seat, d.At.Unix())
		},
		unit: sw.acts.DefaultMove,
		game: func(d store.Deadline) int64 { return d.GameID },
		failed: func(ctx context.Context, key string, d store.Deadline, err error) {
			sw.setAside(ctx, key, KindDeadline, d.GameID, err,
				templates.Say.DeadlineNotHandled(d.Seat, d.At.Format(time.RFC3339)))
		},
		stopIfUnavailable: true,
		skip:              failed,
	})
}

// SendReminders sends the reminder steps that are due, each in a
// transaction of its own, and reports how many it sent. A reminder that
// fails is skipped, and counted like a deadline.
func (sw *Sweeper) SendReminders(ctx context.Context) (int, error) {
	due, err := sw.store.DueReminders(ctx, sw.now())
	if err != nil {
		return 0, err
	}
	return sw.RemindDue(ctx, due)
}

// RemindDue sends the reminder steps due, as read before (Acts.Remind).
// Another node may have sent one meanwhile: the unit reads the seat's
// step again inside its transaction, and writes the mail only if the
// step is still the seat's (and its Message-ID was never queued).
func (sw *Sweeper) RemindDue(ctx context.Context, due []store.Reminder) (int, error) {
	sent, _, err := runDue(ctx, sw, due, dueWork[store.Reminder]{
		key:  func(d store.Reminder) string { return ReminderKey(d.GameID, d.Seat, d.Deadline, d.Lead) },
		unit: sw.acts.Remind,
		game: func(d store.Reminder) int64 { return d.GameID },
		failed: func(ctx context.Context, key string, d store.Reminder, err error) {
			sw.setAside(ctx, key, KindReminder, d.GameID, err,
				templates.Say.ReminderNotWritten(d.Seat))
		},
		stopIfUnavailable: true,
	})
	return sent, err
}

// ReminderKey names one step of one deadline: its mail's Message-ID is
// derived from it.
func ReminderKey(gameID int64, seat int, deadline time.Time, lead time.Duration) string {
	return fmt.Sprintf("reminder:%d:%d:%d:%d", gameID, seat, deadline.Unix(), int64(lead/time.Second))
}

// SendDigests mails every player whose digest is due, each in a
// transaction of his own, and reports how many digests it queued. One
// player's failure stops no other: it is logged, and the player's digest
// is tried again at the next sweep; after tries.Max that day's digest is
// skipped (skipDigest). The error returned joins what failed.
func (sw *Sweeper) SendDigests(ctx context.Context) (int, error) {
	due, err := sw.store.DueDigests(ctx, sw.now())
	if err != nil {
		return 0, err
	}
	return sw.DigestDue(ctx, due)
}

// DigestDue writes the digests due, as read before (Acts.Digest).
// Another node may have written one meanwhile: the unit reads the
// player's due time again inside its transaction, and writes only if it
// is still the one read (and the digest's Message-ID was never queued).
func (sw *Sweeper) DigestDue(ctx context.Context, due []store.DueDigest) (int, error) {
	sent, _, err := runDue(ctx, sw, due, dueWork[store.DueDigest]{
		key:    func(d store.DueDigest) string { return fmt.Sprintf("digest:%s:%d", d.Address, d.Due.Unix()) },
		unit:   sw.acts.Digest,
		failed: sw.skipDigest,
		wrap: func(d store.DueDigest, err error) error {
			return fmt.Errorf("daemon: digest of %s: %w", d.Address, err)
		},
		stopIfUnavailable: true,
	})
	return sent, err
}

// skipDigest counts a failure of a player's digest and, once it has
// failed tries.Max times, gives up that day's digest (Acts.SkipDigest):
// his next one is due a day later, so that a digest that cannot be
// written is not tried every minute all day. His games are untouched:
// their events stay unmailed and are told in his next mail.
func (sw *Sweeper) skipDigest(ctx context.Context, key string, d store.DueDigest, err error) {
	if !sw.tries.Failed(key, string(KindDigest), err, "player", d.Address) {
		return
	}
	if serr := sw.acts.SkipDigest(ctx, d); serr != nil {
		sw.log.Error("skipping a digest failed; it is tried again", "player", d.Address, "err", serr)
		return
	}
	sw.log.Error("digest skipped for today after repeated errors", "player", d.Address)
	sw.tries.Forget(key)
	sw.obs.SetAside(KindDigest)
}
