package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

// A seat's decision grows with each NewDecision; a mail remembers the
// decision and the events its reader had seen, and is found by its
// Message-ID.
func TestDecisionsAndAnsweredMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.NewDecision(ctx, g, 1, t0.Add(-time.Hour), t0); err != nil {
			return err
		}
		if err := tx.NewDecision(ctx, g, 1, t0, t0.Add(time.Second)); err != nil {
			return err
		}
		// An extension is no new decision.
		return tx.SetDeadline(ctx, g, 1, t0.Add(2*time.Second))
	})
	bob, err := s.Seat(ctx, g, 1)
	if err != nil || bob.Decision != 2 || !bob.Deadline.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("seat after two decisions and an extension: %+v, %v", bob, err)
	}
	if ann, _ := s.Seat(ctx, g, 0); ann.Decision != 0 {
		t.Errorf("ann's decision %d", ann.Decision)
	}
	mustTx(t, s, func(tx *Tx) error {
		for _, o := range []Outgoing{
			{MessageID: "to-bob@x", GameID: g, Seat: 1, Decision: 2, SeenEvent: 7, To: "bob@example.org", Raw: []byte("x"), NotBefore: t0},
			{MessageID: "to-ann@x", GameID: g, Seat: 0, To: "ann@example.org", Raw: []byte("x"), NotBefore: t0},
			{MessageID: "lobby@x", Seat: -1, To: "ann@example.org", Raw: []byte("x"), NotBefore: t0},
		} {
			if _, _, err := tx.Enqueue(ctx, o); err != nil {
				return err
			}
		}
		return nil
	})
	for _, tc := range []struct {
		id                  string
		game                int64
		seat                int
		decision, seenEvent int64
	}{
		{"to-bob@x", g, 1, 2, 7},
		{"to-ann@x", g, 0, 0, 0},
		{"lobby@x", 0, -1, 0, 0},
	} {
		o, err := s.OutgoingByMessageID(ctx, tc.id)
		if err != nil || o.GameID != tc.game || o.Seat != tc.seat || o.Decision != tc.decision || o.SeenEvent != tc.seenEvent {
			t.Errorf("%s: %+v, %v", tc.id, o, err)
		}
		// The row without its message is the same row, Raw aside.
		head, err := s.OutgoingHeader(ctx, tc.id)
		if err != nil || head.Raw != nil || len(o.Raw) == 0 {
			t.Errorf("%s without its message: Raw %q (the whole row's %d bytes), %v; want none", tc.id, head.Raw, len(o.Raw), err)
		}
		head.Raw = o.Raw
		if !reflect.DeepEqual(head, o) {
			t.Errorf("%s without its message:\n%+v\nthe whole row:\n%+v", tc.id, head, o)
		}
	}
	if _, err := s.OutgoingByMessageID(ctx, "never@x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown Message-ID: %v", err)
	}
	if _, err := s.OutgoingHeader(ctx, "never@x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown Message-ID without its message: %v", err)
	}
}

// A rename rewrites the seat's name, the set-up and the command lines.
func TestRenameWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "give pb", Source: SourceMail, At: t0}); err != nil {
			return err
		}
		if err := tx.SetMoveCommand(ctx, g, 1, "give robert"); err != nil {
			return err
		}
		if err := tx.SetGameSetup(ctx, g, []byte(`{"players":["pa","robert"]}`)); err != nil {
			return err
		}
		return tx.SetSeatName(ctx, g, 1, "robert")
	})
	ms, _ := s.Moves(ctx, g, 0)
	game, _ := s.Game(ctx, g)
	seat, _ := s.Seat(ctx, g, 1)
	if len(ms) != 1 || ms[0].Command != "give robert" || string(game.Setup) != `{"players":["pa","robert"]}` || seat.Name != "robert" {
		t.Errorf("after the rename: %+v, %s, %q", ms, game.Setup, seat.Name)
	}
	err := s.Tx(ctx, func(tx *Tx) error { return tx.SetMoveCommand(ctx, g, 9, "pass") })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("rewriting a move that does not exist: %v", err)
	}
}

// A decision records since when the game waits on the seat, and its
// reminder step is found by DueReminders once due, and only then; a new
// deadline drops the old step, and a cleared one forgets the start.
func TestWaitingSinceAndDueReminders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	deadline := t0.Add(48 * time.Hour)
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetGameStatus(ctx, g, StatusActive); err != nil {
			return err
		}
		if err := tx.NewDecision(ctx, g, 1, t0, deadline); err != nil {
			return err
		}
		return tx.SetReminder(ctx, g, 1, t0.Add(24*time.Hour), 24*time.Hour)
	})
	bob, err := s.Seat(ctx, g, 1)
	if err != nil || !bob.WaitingSince.Equal(t0) || !bob.RemindAt.Equal(t0.Add(24*time.Hour)) || bob.RemindLead != 24*time.Hour {
		t.Fatalf("seat after a decision with a reminder: %+v, %v", bob, err)
	}
	if due, err := s.DueReminders(ctx, t0.Add(24*time.Hour-time.Second)); err != nil || len(due) != 0 {
		t.Errorf("before the step: %+v, %v", due, err)
	}
	due, err := s.DueReminders(ctx, t0.Add(24*time.Hour))
	if err != nil || len(due) != 1 || due[0].Seat != 1 || !due[0].Deadline.Equal(deadline) || due[0].Lead != 24*time.Hour {
		t.Fatalf("at the step: %+v, %v", due, err)
	}
	mustTx(t, s, func(tx *Tx) error { return tx.SetDeadline(ctx, g, 1, deadline.Add(time.Hour)) })
	if due, _ := s.DueReminders(ctx, deadline); len(due) != 0 {
		t.Errorf("a new deadline kept the old step: %+v", due)
	}
	mustTx(t, s, func(tx *Tx) error { return tx.ClearDeadline(ctx, g, 1) })
	if bob, _ := s.Seat(ctx, g, 1); !bob.WaitingSince.IsZero() || !bob.RemindAt.IsZero() {
		t.Errorf("cleared deadline kept %+v", bob)
	}
}

// A game's turn time is stored when it is made; zero stays zero (the
// service's).
func TestGameTurnTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@example.org", CreatedAt: t0, TurnTime: 48 * time.Hour, WeekendsOff: true})
		return err
	})
	if g, err := s.Game(ctx, id); err != nil || g.TurnTime != 48*time.Hour || !g.WeekendsOff {
		t.Errorf("turn time %v, weekends off %v, %v", g.TurnTime, g.WeekendsOff, err)
	}
	if g, err := s.Game(ctx, newGame(t, s, "bob@example.org")); err != nil || g.TurnTime != 0 || g.WeekendsOff {
		t.Errorf("unset turn time %v, weekends off %v, %v", g.TurnTime, g.WeekendsOff, err)
	}
}
