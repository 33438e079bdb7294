package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

// The sweep's work on a deadline or a vacation's end is one transaction:
// these tests run that work inside a transaction that then fails, as a
// crash before the commit would, check that it left nothing, and sweep
// again to see that the redo does it exactly once. TestReminderRedo
// (reminders) and TestAutopilotDeadlineRedo (the miss that puts a seat
// on autopilot) are their siblings.

// errKilled stands for a crash before the commit.
var errKilled = errors.New("killed")

// crashDeadline does the sweep's work on the one due deadline, seat's,
// inside a transaction that is then rolled back.
func (w *world) crashDeadline(id int64, seat int) {
	w.t.Helper()
	ctx := context.Background()
	due, err := w.st.DueDeadlines(ctx, w.clock)
	if err != nil || len(due) != 1 || due[0].GameID != id || due[0].Seat != seat {
		w.t.Fatalf("due deadlines %+v, %v; want seat %d's of game %d alone", due, err, seat, id)
	}
	d := due[0]
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		tr := (&work{Service: w.svc, key: fmt.Sprintf("deadline:%d:%d:%d", d.GameID, d.Seat, d.At.Unix()), gameID: d.GameID}).in(ctx, tx)
		moved, err := tr.defaultMove(d)
		if err != nil {
			return err
		}
		if !moved {
			return errors.New("the default move was not made")
		}
		if err := tr.enqueue(); err != nil {
			return err
		}
		if tr.out.Len() == 0 {
			return errors.New("the default move queued no mail")
		}
		return errKilled
	})
	if !errors.Is(err, errKilled) {
		w.t.Fatal(err)
	}
}

// footprint is what a sweep's transaction may leave in the store.
type footprint struct {
	moves, events, outbox int
	seats                 []store.Seat
}

func (w *world) footprint(id int64) footprint {
	w.t.Helper()
	ctx := context.Background()
	evs, err := w.st.Events(ctx, id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	out, err := w.st.AllOutgoing(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	seats, err := w.st.Seats(ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return footprint{moves: w.moves(id), events: len(evs), outbox: len(out), seats: seats}
}

// sameFootprint fails the test if the store changed from before.
func (w *world) sameFootprint(id int64, before footprint, what string) {
	w.t.Helper()
	now := w.footprint(id)
	if now.moves != before.moves || now.events != before.events || now.outbox != before.outbox {
		w.t.Fatalf("%s left %d moves, %d events, %d outbox mails; before it %d, %d, %d",
			what, now.moves-before.moves, now.events-before.events, now.outbox-before.outbox, before.moves, before.events, before.outbox)
	}
	for i, st := range now.seats {
		b := before.seats[i]
		if !st.Deadline.Equal(b.Deadline) || st.Missed != b.Missed || st.Autopilot != b.Autopilot || !st.RemindAt.Equal(b.RemindAt) {
			w.t.Fatalf("%s changed seat %d: %+v, before %+v", what, i, st, b)
		}
	}
}

// eventsTo counts the game's events of kind addressed to seat.
func (w *world) eventsTo(id int64, kind EventKind, seat int) int {
	w.t.Helper()
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Kind == string(kind) && e.To == seat {
			n++
		}
	}
	return n
}

// A plain default move (the first miss: no autopilot yet) whose
// transaction is rolled back leaves no move, no event and no mail; the
// redo makes exactly one default move and mails its news once.
func TestDefaultMoveRedo(t *testing.T) {
	t.Parallel()
	w, players, _, id := autopilotWorld(t, 2)
	alice, bob, carol := players[0], players[1], players[2]
	w.playOthers(id, players, []string{bob}, 50)
	if tb := w.table(id); tb.game.Result().Finished || !slices.Equal(tb.game.Waiting(), []int{1}) {
		t.Fatalf("the game waits on %v, want bob alone", tb.game.Waiting())
	}
	w.clock = w.seat(id, 1).Deadline
	before := w.footprint(id)
	mails := map[string]int{}
	for _, p := range players {
		mails[p] = len(w.inbox[p])
	}

	w.crashDeadline(id, 1)
	w.sameFootprint(id, before, "a rolled-back default move")

	for range 3 { // the redo, and sweeps after it at the same time
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	var made []store.Move
	for _, m := range w.movesOf(id)[before.moves:] {
		if m.Source == store.SourceDeadline {
			made = append(made, m)
		}
	}
	if len(made) != 1 || made[0].Seat != 1 {
		t.Fatalf("the redo made the default moves %+v, want one for bob", made)
	}
	if st := w.seat(id, 1); st.Missed != 1 || st.Autopilot {
		t.Errorf("after the redo bob has missed %d, autopilot %v; want 1 and off", st.Missed, st.Autopilot)
	}
	if n := w.eventsOf(id, EventDefault); n != 2 { // one to the others, one to bob
		t.Errorf("%d default-move events, want 2", n)
	}
	if n := w.mailsWith(bob, "Your deadline passed, so pbem's bot played for you"); n != 1 {
		t.Errorf("bob was told %d times that pbem moved for him, want once", n)
	}
	// The others learn it with their next mail, if the move makes one.
	for _, p := range []string{alice, carol} {
		if n := w.mailsWith(p, "bob's deadline passed"); n > 1 {
			t.Errorf("%s was told %d times that bob's deadline passed", p, n)
		}
	}
	// Every mail queued went out once: the inboxes grew by the outbox's
	// new rows, no more.
	after := w.footprint(id)
	got := 0
	for _, p := range players {
		got += len(w.inbox[p]) - mails[p]
	}
	if got != after.outbox-before.outbox || got == 0 {
		t.Errorf("%d mails arrived for %d new outbox rows", got, after.outbox-before.outbox)
	}
}

// A seat on autopilot is moved for at once when the game comes to it. When
// the game comes to it by another seat's missed deadline, that move is in
// the sweep's transaction; rolled back, it leaves nothing, and the redo
// makes the missed deadline's move once and autopilot's moves once.
func TestAutopilotImmediateMoveRedo(t *testing.T) {
	t.Parallel()
	w, players, _, id := autopilotWorld(t, 2)
	alice := players[0]
	w.missDeadline(id, players)
	w.missDeadline(id, players)
	if !w.seat(id, 1).Autopilot {
		t.Fatal("bob is not on autopilot after two misses")
	}
	// Play until alice alone is waited on and bob, on autopilot, is
	// next: alice's default move must bring the game to bob.
	found := false
	for range 60 {
		tb := w.table(id)
		if tb.game.Result().Finished {
			break
		}
		if slices.Equal(tb.game.Waiting(), []int{0}) && w.nextAfterDefault(id, 0) == 1 {
			found = true
			break
		}
		p := tb.game.Waiting()[0]
		w.send(players[p], w.seatAddress(tb.seats[p].Token), w.legal(id, p))
	}
	if !found {
		t.Fatal("the game never came to a point where alice's default move brings it to bob: the test would prove nothing")
	}
	w.clock = w.seat(id, 0).Deadline
	before := w.footprint(id)
	autoplayBefore := w.eventsTo(id, EventAutoplay, 1)

	w.crashDeadline(id, 0)
	w.sameFootprint(id, before, "a rolled-back default move that brought the game to a seat on autopilot")

	for range 3 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	made := w.movesOf(id)[before.moves:]
	if len(made) < 2 || made[0].Seat != 0 || made[0].Source != store.SourceDeadline {
		t.Fatalf("after the redo the new moves are %+v; want alice's default move first, then bob's", made)
	}
	aliceMoves, bobMoves := 0, 0
	for _, m := range made {
		switch {
		case m.Seat == 0:
			aliceMoves++
		case m.Seat == 1 && m.Source == store.SourceDeadline:
			bobMoves++
		default:
			t.Errorf("a move of seat %d from %s after the redo", m.Seat, m.Source)
		}
	}
	if aliceMoves != 1 {
		t.Errorf("alice's missed deadline made %d moves, want 1", aliceMoves)
	}
	// Each of autopilot's moves tells bob which move it was: as many
	// notes as moves, made once each.
	if notes := w.eventsTo(id, EventAutoplay, 1) - autoplayBefore; bobMoves == 0 || notes != bobMoves {
		t.Errorf("autopilot made %d moves for bob with %d notes; want at least one, a note each", bobMoves, notes)
	}
	if n := w.mailsWith(alice, "Your deadline passed, so pbem's bot played for you"); n != 1 {
		t.Errorf("alice was told %d times that pbem moved for her, want once", n)
	}
	if tb := w.table(id); !tb.game.Result().Finished && slices.Contains(tb.game.Waiting(), 1) {
		t.Errorf("after the redo the game waits on bob, on autopilot: %v", tb.game.Waiting())
	}
}

// nextAfterDefault is the seat the game would wait on alone after seat's
// default move, or -1: it tries the move on a copy of the game.
func (w *world) nextAfterDefault(id int64, seat int) int {
	w.t.Helper()
	tb := w.table(id)
	cmd, ok := tb.game.Default(seat)
	if !ok {
		return -1
	}
	if _, err := tb.game.Apply(seat, cmd); err != nil || tb.game.Result().Finished {
		return -1
	}
	if ws := tb.game.Waiting(); len(ws) == 1 {
		return ws[0]
	}
	return -1
}

// The end of a vacation that ran out, rolled back, leaves the player
// away and the tables untold; the redo tells them once.
func TestVacationReturnRedo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "vacation 2d")
	_, until, err := w.onVacation("alice@x.test")
	if err != nil {
		t.Fatal(err)
	}
	w.clock = until
	before := w.footprint(id)
	back, err := w.st.Returned(ctx, w.clock)
	if err != nil || !slices.Equal(back, []string{"alice@x.test"}) {
		t.Fatalf("returned %v, %v; want alice", back, err)
	}
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		tr := (&work{Service: w.svc, key: fmt.Sprintf("back:%s:%d", back[0], w.clock.Unix()), from: back[0]}).in(ctx, tx)
		cur, err := tx.CurrentVacation(ctx, back[0])
		if err != nil {
			return err
		}
		if _, err := tr.endVacation(cur, time.UTC, false); err != nil {
			return err
		}
		if err := tr.mailTables(); err != nil {
			return err
		}
		if err := tr.enqueue(); err != nil {
			return err
		}
		if tr.out.Len() == 0 {
			return errors.New("the vacation's end queued no mail")
		}
		return errKilled
	})
	if !errors.Is(err, errKilled) {
		t.Fatal(err)
	}
	w.sameFootprint(id, before, "a rolled-back end of a vacation")
	if away, _, _ := w.onVacation("alice@x.test"); !away {
		t.Fatal("a rolled-back end of a vacation ended it")
	}

	for range 3 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	if away, _, _ := w.onVacation("alice@x.test"); away {
		t.Fatal("the redo did not end the vacation")
	}
	for _, p := range players[1:] {
		if n := w.mailsWith(p, "alice is back from vacation"); n != 1 {
			t.Errorf("%s was told %d times that alice is back, want once", p, n)
		}
	}
	// One event when she left, one when she came back.
	if n := w.eventsOf(id, EventVacation); n != 2 {
		t.Errorf("%d vacation events, want 2", n)
	}
	if n := w.mailsWith("alice@x.test", "back from vacation"); n != 0 {
		t.Errorf("alice was told %d times of her own return; the others are told", n)
	}
}
