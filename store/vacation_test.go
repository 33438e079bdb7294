package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A vacation marks the player away, moves his deadlines in active games
// only, and its end clears the mark and keeps the record.
func TestVacation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	active := newGame(t, s, "ann@x.test", "bob@x.test")
	paused := newGame(t, s, "ann@x.test", "bob@x.test")
	d := t0.Add(30 * time.Hour)
	mustTx(t, s, func(tx *Tx) error {
		for _, id := range []int64{active, paused} {
			if err := tx.SetGameStatus(ctx, id, StatusActive); err != nil {
				return err
			}
			for seat := range 2 {
				if err := tx.SetDeadline(ctx, id, seat, d); err != nil {
					return err
				}
			}
		}
		return tx.SetGameStatus(ctx, paused, StatusPaused)
	})
	until := t0.Add(5 * 24 * time.Hour)
	var v Vacation
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.CurrentVacation(ctx, "ann@x.test"); !errors.Is(err, ErrNotFound) {
			return errors.New("a current vacation before any")
		}
		var err error
		if v, err = tx.StartVacation(ctx, "Ann@x.test", t0, until); err != nil {
			return err
		}
		n, err := tx.ShiftDeadlines(ctx, "ann@x.test", until.Sub(t0), time.Time{})
		if n != 1 {
			t.Errorf("%d deadlines moved, want 1 (ann's in the active game)", n)
		}
		return err
	})
	seat := func(id int64, n int) Seat {
		st, err := s.Seat(ctx, id, n)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if got := seat(active, 0).Deadline; !got.Equal(d.Add(5 * 24 * time.Hour)) {
		t.Errorf("ann's deadline %s, want %s", got, d.Add(5*24*time.Hour))
	}
	if !seat(active, 1).Deadline.Equal(d) || !seat(paused, 0).Deadline.Equal(d) {
		t.Errorf("a deadline not ann's or in a paused game moved")
	}
	if got, err := s.AwayUntil(ctx, "ann@x.test"); err != nil || !got.Equal(until) {
		t.Errorf("away until %s, %v", got, err)
	}
	if got, err := s.Returned(ctx, until.Add(-time.Second)); err != nil || len(got) != 0 {
		t.Errorf("returned before the end: %v, %v", got, err)
	}
	if got, err := s.Returned(ctx, until); err != nil || len(got) != 1 {
		t.Errorf("returned at the end: %v, %v", got, err)
	}
	// Back after a day: pulled back, never before the floor.
	back := t0.Add(24 * time.Hour)
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.ShiftDeadlines(ctx, "ann@x.test", -until.Sub(back), t0.Add(100*time.Hour)); err != nil {
			return err
		}
		return tx.EndVacation(ctx, v, back)
	})
	if got := seat(active, 0).Deadline; !got.Equal(t0.Add(100 * time.Hour)) {
		t.Errorf("pulled back to %s, want the floor %s", got, t0.Add(100*time.Hour))
	}
	if got, err := s.AwayUntil(ctx, "ann@x.test"); err != nil || !got.IsZero() {
		t.Errorf("still away until %s, %v", got, err)
	}
	vs, err := s.Vacations(ctx, "ann@x.test", t0.Add(-time.Hour), t0.Add(time.Hour))
	if err != nil || len(vs) != 1 || !vs[0].Until.Equal(back) {
		t.Errorf("vacations %+v, %v; want one until %s", vs, err, back)
	}
}
