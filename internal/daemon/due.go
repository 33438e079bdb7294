package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/sweeps"
	"github.com/pbem/pbem/store"
)

// The deadline sweep (internal/sweeps) finds the work that fell due and
// does each item in a transaction of its own, with its tries. What an
// item's work is — a default move, a reminder, a digest, a lapsed undo,
// a return from vacation — is a game command and a mail, and so the
// daemon's: sweepActs gives the sweeper one sweepUnit per item, a work
// bound to each transaction tried.

// Sweeper is the service's deadline sweep and retention, sharing its
// store, clock, logger and observer: cmd/pbem's Run runs it, tests sweep
// with it.
func (s *Service) Sweeper() *sweeps.Sweeper { return s.sweeper }

// newSweeper makes the sweeper of s, once its options are set.
func newSweeper(s *Service) *sweeps.Sweeper {
	return sweeps.New(s.store, sweepActs{s}, sweeps.Config{
		Now: s.now, Log: s.log, Observer: sweepObserver{s.obs},
		RefusalWindow: s.cfg.RefusalWindow, BudgetWindow: limitWindow,
	})
}

// sweepUnit is one sweep item's work: w, bound afresh to each
// transaction tried, and the act it does.
type sweepUnit struct {
	w  *work
	do func(w *work) (counts bool, err error)
}

func (u sweepUnit) Do(ctx context.Context, tx *store.Tx) (bool, error) { return u.do(u.w.in(ctx, tx)) }

func (u sweepUnit) Committed() { u.w.committed() }

// sweepActs are the daemon's acts on the sweep's items (sweeps.Acts).
type sweepActs struct{ s *Service }

// DefaultMove makes the default move of a passed deadline (defaultMove).
func (a sweepActs) DefaultMove(key string, d store.Deadline) sweeps.Unit {
	return sweepUnit{w: &work{Service: a.s, key: key, gameID: d.GameID}, do: func(w *work) (bool, error) {
		moved, err := w.defaultMove(d)
		if err != nil {
			return false, err
		}
		return moved, w.enqueue()
	}}
}

// Remind writes a due reminder step (remind): it counts when it queued
// a mail.
func (a sweepActs) Remind(key string, d store.Reminder) sweeps.Unit {
	return sweepUnit{w: &work{Service: a.s, key: key, gameID: d.GameID}, do: func(w *work) (bool, error) {
		err := w.remind(d)
		return w.out.Len() > 0, err
	}}
}

// Digest writes a player's due digest (digest): it counts when it
// queued a mail.
func (a sweepActs) Digest(key string, d store.DueDigest) sweeps.Unit {
	return sweepUnit{w: &work{Service: a.s, key: key}, do: func(w *work) (bool, error) {
		err := w.digest(d)
		return w.out.Len() > 0, err
	}}
}

// LapseUndo ends an undo whose time ran out (lapseUndo).
func (a sweepActs) LapseUndo(key string, u store.UndoProposal) sweeps.Unit {
	return sweepUnit{w: &work{Service: a.s, key: key, gameID: u.GameID}, do: func(w *work) (bool, error) {
		if err := w.lapseUndo(u); err != nil {
			return false, err
		}
		return false, w.enqueue()
	}}
}

// Return ends a vacation that ran out (returnFromVacation).
func (a sweepActs) Return(key, addr string) sweeps.Unit {
	return sweepUnit{w: &work{Service: a.s, key: key, from: addr}, do: func(w *work) (bool, error) {
		return false, w.returnFromVacation(addr)
	}}
}

// SetGameAside sets a game aside as broken for a deadline or a reminder
// that kept failing: why names the work, unless the failure is the
// game's own (a gameError), whose words say more.
func (a sweepActs) SetGameAside(ctx context.Context, gameID int64, cause error, why string) error {
	var ge *loaded.Error
	if errors.As(cause, &ge) {
		why = ge.What
	} else {
		why += ": " + cause.Error()
	}
	return a.s.setGameAsideAlone(ctx, gameID, why)
}

// SkipDigest gives up a player's digest that kept failing: his next one
// is due at his hour tomorrow, unless he changed his setting since.
func (a sweepActs) SkipDigest(ctx context.Context, d store.DueDigest) error {
	s := a.s
	return s.store.Tx(ctx, func(tx *store.Tx) error {
		p, err := tx.Player(ctx, d.Address)
		if err != nil || p.Notify != store.NotifyDigest || p.DigestDue.Unix() != d.Due.Unix() {
			return err
		}
		return tx.SetPlayerDigest(ctx, p.Address, p.DigestHour, nextDigest(s.now(), playerLocation(p), p.DigestHour))
	})
}

// sweepObserver tells the service's Observer what the sweeper does.
type sweepObserver struct{ obs Observer }

func (o sweepObserver) Sweep(took time.Duration, due int) { o.obs.Sweep(took, due) }

// SetAside reports a deadline's or a reminder's game set aside, or a
// digest skipped, under its AsideWhat.
func (o sweepObserver) SetAside(what sweeps.Kind) {
	switch what {
	case sweeps.KindDeadline:
		o.obs.SetAside(AsideDeadline)
	case sweeps.KindReminder:
		o.obs.SetAside(AsideReminder)
	case sweeps.KindDigest:
		o.obs.SetAside(AsideDigest)
	default:
		o.obs.SetAside(AsideWhat(what))
	}
}
