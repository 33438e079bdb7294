package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
)

// fakeTable is a loaded game of three seats, in a transaction that
// writes down what the acts ask of it. The whole loop with the daemon's
// Table is tested in internal/daemon (admin_test.go and others).
type fakeTable struct {
	row      store.Game
	seats    []store.Seat
	now      time.Time
	writes   []string // the store's writes and the daemon's steps, in order
	takeBack error    // what TakeBack returns
	unrate   error    // what Unrate returns
}

var _ Table = (*fakeTable)(nil)

func newFake(status store.Status) *fakeTable {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return &fakeTable{
		row: store.Game{ID: 7, Status: status},
		seats: []store.Seat{
			{Seat: 0, Name: "alice", Address: "alice@x.test", Deadline: now.Add(time.Hour)},
			{Seat: 1, Name: "bob", Address: "bob@y.test"},
			{Seat: 2, Name: "bea", Address: "bea@bot.pbem.invalid", Bot: "easy"},
		},
		now: now,
	}
}

func (f *fakeTable) did(format string, args ...any) {
	f.writes = append(f.writes, fmt.Sprintf(format, args...))
}

func (f *fakeTable) Row() *store.Game    { return &f.row }
func (f *fakeTable) Seats() []store.Seat { return f.seats }
func (f *fakeTable) Names() []string     { return []string{"alice", "bob", "bea"} }
func (f *fakeTable) Store() Store        { return fakeStore{f} }
func (f *fakeTable) Now() time.Time      { return f.now }
func (f *fakeTable) Grammar(int) parser.Grammar {
	panic("the tests make no move: internal/daemon's do, in the game's language")
}
func (f *fakeTable) Apply(int, engine.Command) ([]engine.Event, error) { panic("no move") }
func (f *fakeTable) Record(int, string, string, []engine.Event) error  { panic("no move") }
func (f *fakeTable) FreshDeadline(seat int) error                      { f.did("fresh %d", seat); return nil }
func (f *fakeTable) ExtendedDeadline(_ int, from time.Time, by time.Duration) (time.Time, error) {
	return from.Add(by), nil
}
func (f *fakeTable) NextReminder(seat int, deadline time.Time, span time.Duration, after time.Time) error {
	f.did("reminder %d %s %s", seat, deadline.Sub(f.now), span)
	return nil
}
func (f *fakeTable) TakeBack(seat int, actor string) error {
	f.did("take back %d by %s", seat, actor)
	return f.takeBack
}
func (f *fakeTable) Unrate() error { f.did("unrate"); return f.unrate }

// fakeStore writes down the writes of its table.
type fakeStore struct{ f *fakeTable }

func (s fakeStore) ClearGameAside(_ context.Context, id int64) error {
	s.f.did("unbroken")
	return nil
}
func (s fakeStore) SetGameStatus(_ context.Context, id int64, st store.Status) error {
	s.f.did("status %s", st)
	return nil
}
func (s fakeStore) SetDeadline(_ context.Context, _ int64, seat int, t time.Time) error {
	s.f.did("deadline %d %s", seat, t.Sub(s.f.now))
	return nil
}
func (s fakeStore) ClearDeadline(_ context.Context, _ int64, seat int) error {
	s.f.did("no deadline %d", seat)
	return nil
}
func (s fakeStore) ReplaceSeatAddress(_ context.Context, _ int64, seat int, address, token string) error {
	if address == "alice@x.test" {
		return store.ErrDuplicate
	}
	s.f.did("seat %d to %s", seat, address)
	return nil
}
func (s fakeStore) DropLink(_ context.Context, _ int64, seat int) error {
	s.f.did("drop link %d", seat)
	return nil
}
func (s fakeStore) UpsertPlayer(_ context.Context, address, _ string) (store.Player, error) {
	s.f.did("player %s", address)
	return store.Player{}, nil
}
func (s fakeStore) SetSeatLastMailedEvent(_ context.Context, _ int64, seat int, id int64) error {
	s.f.did("mailed %d %d", seat, id)
	return nil
}
func (s fakeStore) SetSeatJoined(_ context.Context, _ int64, seat int) error {
	s.f.did("joined %d", seat)
	return nil
}
func (s fakeStore) SetSeatBot(_ context.Context, _ int64, seat int, level string) error {
	s.f.did("bot %d %q", seat, level)
	return nil
}

func (s fakeStore) SetSeatBank(_ context.Context, _ int64, seat int, bank time.Duration) error {
	s.f.did("bank %d %s", seat, bank)
	return nil
}

// do runs act on f and checks its outcome and writes.
func do(t *testing.T, f *fakeTable, act Act, announce string, moved bool, writes ...string) {
	t.Helper()
	f.writes = nil
	out, err := act.Do(context.Background(), f, "root")
	if err != nil {
		t.Fatalf("%s %s: %v", act.Word(), act.Detail(), err)
	}
	if !strings.Contains(out.Announce, announce) || (announce == "") != (out.Announce == "") || out.Moved != moved {
		t.Errorf("%s %s: %+v; want %q, moved %v", act.Word(), act.Detail(), out, announce, moved)
	}
	if !slices.Equal(f.writes, writes) {
		t.Errorf("%s %s wrote\n%q\nwant\n%q", act.Word(), act.Detail(), f.writes, writes)
	}
}

// refused runs act on f and checks that it is refused with want, having
// written nothing.
func refused(t *testing.T, f *fakeTable, act Act, want string) {
	t.Helper()
	f.writes = nil
	_, err := act.Do(context.Background(), f, "root")
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s %s: %v; want a refusal with %q", act.Word(), act.Detail(), err, want)
	}
	if len(f.writes) != 0 {
		t.Errorf("%s %s refused, but wrote %q", act.Word(), act.Detail(), f.writes)
	}
}

func TestStatusAct(t *testing.T) {
	t.Parallel()
	f := newFake(store.StatusActive)
	do(t, f, StatusAct{To: Pause, Reason: "holiday"}, "holiday", false, "status paused")
	if f.row.Status != store.StatusPaused {
		t.Errorf("the loaded game is %s after pause", f.row.Status)
	}
	refused(t, f, StatusAct{To: Pause}, "paused")

	// Resuming gives everyone waited on a fresh deadline: time stood
	// still while paused.
	do(t, f, StatusAct{To: Resume}, "resumed", false, "status active", "fresh 0")

	f = newFake(store.StatusInviting)
	do(t, f, StatusAct{To: Abort}, "ended", false, "status aborted", "no deadline 0", "no deadline 1", "no deadline 2")
	refused(t, newFake(store.StatusFinished), StatusAct{To: Abort}, "finished")
	refused(t, newFake(store.StatusActive), StatusAct{To: "dance"}, `"dance"`)
}

func TestRetryAct(t *testing.T) {
	t.Parallel()
	f := newFake(store.StatusActive)
	f.row.Aside = "the set-up does not load"
	do(t, f, RetryAct{}, "repaired", false, "unbroken", "fresh 0")
	if f.row.Aside != "" {
		t.Errorf("the loaded game is still set aside: %q", f.row.Aside)
	}
	// A paused game gets its deadlines when it resumes.
	f = newFake(store.StatusPaused)
	do(t, f, RetryAct{}, "repaired", false, "unbroken")
}

func TestExtendAct(t *testing.T) {
	t.Parallel()
	// From the deadline the seat has: alice's is in an hour.
	do(t, newFake(store.StatusActive), ExtendAct{Who: "Alice", By: 2 * time.Hour}, "alice", false,
		"deadline 0 3h0m0s", "reminder 0 3h0m0s 3h0m0s")
	// From now when it has none, by address.
	do(t, newFake(store.StatusActive), ExtendAct{Who: "Bob@Y.test", By: 90 * time.Minute}, "bob", false,
		"deadline 1 1h30m0s", "reminder 1 1h30m0s 1h30m0s")
	refused(t, newFake(store.StatusActive), ExtendAct{Who: "bob", By: -time.Hour}, "positive")
	refused(t, newFake(store.StatusActive), ExtendAct{Who: "bea", By: time.Hour}, "bea")
	refused(t, newFake(store.StatusActive), ExtendAct{Who: "carol", By: time.Hour}, "alice, bob, bea")
}

func TestReplaceAct(t *testing.T) {
	t.Parallel()
	f := newFake(store.StatusActive)
	do(t, f, ReplaceAct{Who: "bea", Address: "Carol@Z.test"}, "bea", false,
		"seat 2 to carol@z.test", "drop link 2", "player carol@z.test", "mailed 2 0", "joined 2", `bot 2 ""`)
	if st := f.seats[2]; st.Address != "carol@z.test" || st.Bot != "" || st.State != store.SeatJoined {
		t.Errorf("the loaded seat is %+v", st)
	}
	f = newFake(store.StatusActive)
	do(t, f, ReplaceAct{Who: "bob", Address: "rob@y.test"}, "bob", false,
		"seat 1 to rob@y.test", "drop link 1", "player rob@y.test", "mailed 1 0", "joined 1")
	// In a game with a time bank, the new player starts with the whole
	// clock, and the decision under way (alice's) runs on it from now;
	// bob, owing none, just gets the clock.
	f = newFake(store.StatusActive)
	f.row.Bank = store.Bank{Start: 48 * time.Hour, Increment: 12 * time.Hour}
	do(t, f, ReplaceAct{Who: "alice", Address: "ann@x.test"}, "alice", false,
		"seat 0 to ann@x.test", "drop link 0", "player ann@x.test", "mailed 0 0", "joined 0", "bank 0 48h0m0s", "fresh 0")
	if st := f.seats[0]; st.Bank != 48*time.Hour {
		t.Errorf("the loaded seat's bank is %v", st.Bank)
	}
	do(t, f, ReplaceAct{Who: "bob", Address: "rob@y.test"}, "bob", false,
		"seat 1 to rob@y.test", "drop link 1", "player rob@y.test", "mailed 1 0", "joined 1", "bank 1 48h0m0s")
	refused(t, newFake(store.StatusActive), ReplaceAct{Who: "bob", Address: "nobody"}, `"nobody"`)
	refused(t, newFake(store.StatusActive), ReplaceAct{Who: "bob", Address: "x@bot.pbem.invalid"}, "bot")
	refused(t, newFake(store.StatusActive), ReplaceAct{Who: "bob", Address: "alice@x.test"}, "alice@x.test")
}

func TestUndoAct(t *testing.T) {
	t.Parallel()
	do(t, newFake(store.StatusActive), UndoAct{Who: "bob"}, "", true, "take back 1 by root")
	refused(t, newFake(store.StatusPaused), UndoAct{Who: "bob"}, "paused")

	f := newFake(store.StatusActive)
	f.takeBack = &engine.UndoError{Player: "bob", Reason: "alice has moved since"}
	_, err := UndoAct{Who: "bob"}.Do(context.Background(), f, "root")
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "alice has moved since") {
		t.Errorf("the engine's rule: %v", err)
	}
	// Another failure is the service's, not a refusal.
	f.takeBack = errors.New("the store is down")
	if _, err := (UndoAct{Who: "bob"}).Do(context.Background(), f, "root"); err == nil || errors.Is(err, ErrRefused) {
		t.Errorf("a failure: %v", err)
	}
}

func TestUnrateAct(t *testing.T) {
	t.Parallel()
	do(t, newFake(store.StatusFinished), UnrateAct{}, "ratings", false, "unrate")
	f := newFake(store.StatusFinished)
	f.unrate = store.ErrNotFound
	if _, err := (UnrateAct{}).Do(context.Background(), f, "root"); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not rated") {
		t.Errorf("a game not rated: %v", err)
	}
}
