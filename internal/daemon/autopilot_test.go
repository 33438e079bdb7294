package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

const autopilotAdmin = "admin@pbem.test"

// autopilotWorld is a game of felix in which bob (seat 1) may stay away;
// the admin is told of autopilot.
func autopilotWorld(t *testing.T, after int) (*world, []string, map[string]string, int64) {
	w := newWorldConfig(t, func(c *Config) {
		c.Limits = unlimited
		c.Admins = autopilotAdmin
		c.AutopilotAfter = after
	})
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	return w, players, reply, id
}

// seat reads a seat as stored.
func (w *world) seat(id int64, seat int) store.Seat {
	w.t.Helper()
	st, err := w.st.Seat(context.Background(), id, seat)
	if err != nil {
		w.t.Fatal(err)
	}
	return st
}

// missDeadline has the others play until the game waits on bob alone,
// then lets bob's deadline pass and sweeps.
func (w *world) missDeadline(id int64, players []string) {
	w.t.Helper()
	w.playOthers(id, players, []string{players[1]}, 50)
	tb := w.loaded(id)
	if tb.State.Result().Finished || !slices.Equal(tb.State.Waiting(), []int{1}) {
		w.t.Fatalf("the game waits on %v, want bob alone", tb.State.Waiting())
	}
	if w.seat(id, 1).Deadline.IsZero() {
		w.t.Fatal("the game waits on bob, who has no deadline")
	}
	w.clock = w.clock.Add(73 * time.Hour)
	if err := w.sweep(); err != nil {
		w.t.Fatal(err)
	}
}

// mailsWith counts the mails of addr whose text holds s.
func (w *world) mailsWith(addr, s string) int {
	n := 0
	for _, m := range w.inbox[addr] {
		// Mails are wrapped: compare the words.
		if strings.Contains(strings.Join(strings.Fields(m.Text), " "), s) {
			n++
		}
	}
	return n
}

// eventsOf counts the game's events of kind.
func (w *world) eventsOf(id int64, kind EventKind) int {
	w.t.Helper()
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Kind == string(kind) {
			n++
		}
	}
	return n
}

// After two missed deadlines in a row bob's seat is on autopilot: the
// table and the admin are told once, and the game no longer waits on him
// (his default moves are made at once, with no deadline); his `back`
// takes the seat back, which is announced, and deadlines apply again.
func TestAutopilot(t *testing.T) {
	t.Parallel()
	w, players, reply, id := autopilotWorld(t, 2)
	alice, bob, carol := players[0], players[1], players[2]
	w.missDeadline(id, players)
	if st := w.seat(id, 1); st.Missed != 1 || st.Autopilot {
		t.Fatalf("after one miss: missed %d, autopilot %v", st.Missed, st.Autopilot)
	}
	w.missDeadline(id, players)
	if st := w.seat(id, 1); st.Missed != 2 || !st.Autopilot {
		t.Fatalf("after two misses: missed %d, autopilot %v", st.Missed, st.Autopilot)
	}
	told := "bob missed 2 deadlines in a row, so pbem's bot plays for bob"
	for _, p := range []string{alice, carol} {
		if n := w.mailsWith(p, told); n != 1 {
			t.Errorf("%s was told %d times that bob is on autopilot, want once", p, n)
		}
	}
	if n := w.mailsWith(bob, "You missed 2 deadlines in a row"); n != 1 {
		t.Errorf("bob was told %d times that his seat is on autopilot, want once", n)
	}
	if n := w.mailsWith(autopilotAdmin, "missed 2 deadlines in a row"); n != 1 {
		t.Errorf("the admin was told %d times, want once", n)
	}
	// The third time the game would wait on him it does not: pbem moves
	// for him in the same transaction as the move before.
	before := len(w.inbox[bob])
	for range 3 {
		w.playOthers(id, players, []string{bob}, 2)
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			break
		}
		if slices.Contains(tb.State.Waiting(), 1) {
			t.Fatalf("the game waits on bob, on autopilot: %v", tb.State.Waiting())
		}
		if !w.seat(id, 1).Deadline.IsZero() {
			t.Fatal("bob, on autopilot, has a deadline")
		}
	}
	for _, m := range w.inbox[bob][before:] {
		if strings.HasPrefix(m.Headline, "Reminder") {
			t.Errorf("bob on autopilot was reminded: %s", m.Headline)
		}
	}
	if w.mailsWith(alice, "On autopilot (pbem's bot plays for them until they send a move or back): bob.") == 0 {
		t.Error("no mail of alice's shows bob on autopilot in the words of the default stand-in")
	}
	if !w.loaded(id).State.Result().Finished {
		if !strings.Contains(w.last(alice).Text+w.last(carol).Text, "On autopilot") {
			t.Log("the last game mails do not show bob on autopilot (they may have been turn mails)")
		}
	}
	if n := w.eventsOf(id, EventAutopilot); n != 2 { // one to the others, one to bob
		t.Errorf("%d autopilot events, want 2", n)
	}

	// bob comes back.
	w.send(bob, reply[bob], "back")
	if got := w.last(bob).Text; !strings.Contains(got, "Welcome back") {
		t.Fatalf("bob's back was answered:\n%s", got)
	}
	if st := w.seat(id, 1); st.Missed != 0 || st.Autopilot {
		t.Fatalf("after back: missed %d, autopilot %v", st.Missed, st.Autopilot)
	}
	if n := w.mailsWith(alice, "bob is back and plays bob's seat again"); n != 1 {
		t.Errorf("alice was told %d times that bob is back, want once", n)
	}
	if n := w.mailsWith(autopilotAdmin, "no longer moves for the seat"); n != 1 {
		t.Errorf("the admin was told %d times that bob is back, want once", n)
	}
	// A second back changes nothing and is said so.
	w.send(bob, reply[bob], "back")
	if got := w.last(bob).Text; !strings.Contains(got, "not on autopilot") {
		t.Fatalf("a second back:\n%s", got)
	}
	if n := w.mailsWith(alice, "bob is back"); n != 1 {
		t.Errorf("alice was told %d times that bob is back after a second back, want once", n)
	}
	// Deadlines apply again: the game waits on him.
	w.playOthers(id, players, []string{bob}, 50)
	tb := w.loaded(id)
	if tb.State.Result().Finished {
		t.Fatal("the game ended before it waited on bob again: the check of his deadline would prove nothing")
	}
	if !slices.Contains(tb.State.Waiting(), 1) || w.seat(id, 1).Deadline.IsZero() {
		t.Fatalf("after back the game waits on %v, bob's deadline %v", tb.State.Waiting(), w.seat(id, 1).Deadline)
	}
}

// A move of his own between two misses resets bob's count: the misses
// are no longer in a row.
func TestAutopilotOwnMoveResets(t *testing.T) {
	t.Parallel()
	w, players, reply, id := autopilotWorld(t, 2)
	bob := players[1]
	w.missDeadline(id, players)
	w.playOthers(id, players, []string{bob}, 50)
	w.send(bob, reply[bob], w.legal(id, 1))
	if st := w.seat(id, 1); st.Missed != 0 {
		t.Fatalf("after his own move bob has %d misses, want 0", st.Missed)
	}
	w.missDeadline(id, players)
	if st := w.seat(id, 1); st.Missed != 1 || st.Autopilot {
		t.Fatalf("missed %d, autopilot %v; want 1 and off", st.Missed, st.Autopilot)
	}
}

// autopilot_after = 0 never puts a seat on autopilot.
func TestAutopilotOff(t *testing.T) {
	t.Parallel()
	w, players, _, id := autopilotWorld(t, 0)
	for range 3 {
		w.missDeadline(id, players)
	}
	if st := w.seat(id, 1); st.Missed != 3 || st.Autopilot {
		t.Fatalf("missed %d, autopilot %v; want 3 and off", st.Missed, st.Autopilot)
	}
	if n := w.eventsOf(id, EventAutopilot); n != 0 {
		t.Fatalf("%d autopilot events", n)
	}
}

// A sweep that crashes after the default move that puts the seat on
// autopilot, before its commit, leaves nothing; the redo does it once:
// one default move, one announcement, one admin notice.
func TestAutopilotDeadlineRedo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, players, _, id := autopilotWorld(t, 2)
	w.missDeadline(id, players)
	w.playOthers(id, players, []string{players[1]}, 50)
	w.clock = w.clock.Add(73 * time.Hour)
	due, err := w.st.DueDeadlines(ctx, w.clock)
	if err != nil || len(due) != 1 || due[0].Seat != 1 {
		t.Fatalf("due deadlines %v %v", due, err)
	}
	moves, _ := w.st.Moves(ctx, id, 0)
	crash := errors.New("killed")
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		tr := (&work{Service: w.svc, key: fmt.Sprintf("deadline:%d:%d:%d", due[0].GameID, due[0].Seat, due[0].At.Unix()), gameID: id}).in(ctx, tx)
		if _, err := tr.defaultMove(due[0]); err != nil {
			return err
		}
		if err := tr.enqueue(); err != nil {
			return err
		}
		return crash
	})
	if !errors.Is(err, crash) {
		t.Fatal(err)
	}
	if st := w.seat(id, 1); st.Missed != 1 || st.Autopilot {
		t.Fatalf("a rolled-back sweep left missed %d, autopilot %v", st.Missed, st.Autopilot)
	}
	if n := w.eventsOf(id, EventAutopilot); n != 0 {
		t.Fatalf("a rolled-back sweep left %d autopilot events", n)
	}
	// The redo, and a sweep after it.
	for range 2 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	if st := w.seat(id, 1); !st.Autopilot {
		t.Fatal("the redo did not put bob on autopilot")
	}
	if n := w.eventsOf(id, EventAutopilot); n != 2 {
		t.Fatalf("%d autopilot events after the redo, want 2 (the others', bob's)", n)
	}
	if n := w.mailsWith(autopilotAdmin, "missed 2 deadlines in a row"); n != 1 {
		t.Fatalf("the admin was told %d times, want once", n)
	}
	if n := w.mailsWith(players[0], "bob missed 2 deadlines in a row"); n != 1 {
		t.Fatalf("alice was told %d times, want once", n)
	}
	after, _ := w.st.Moves(ctx, id, 0)
	deadlineMoves := 0
	for _, m := range after[len(moves):] {
		if m.Seat == 1 && m.Source == store.SourceDeadline {
			deadlineMoves++
		}
	}
	// The missed deadline's move, and maybe autopilot's at once after it;
	// never the missed one twice.
	first := after[len(moves)]
	if first.Seat != 1 || first.Source != store.SourceDeadline || deadlineMoves == 0 {
		t.Fatalf("the move after the redo is seat %d from %s", first.Seat, first.Source)
	}
}
