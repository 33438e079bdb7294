package timebank

import (
	"context"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC) // a Monday

func TestAfterAndRestart(t *testing.T) {
	t.Parallel()
	b := store.Bank{Start: 48 * time.Hour, Increment: 12 * time.Hour, Max: 120 * time.Hour}
	cases := []struct {
		bank store.Bank
		left time.Duration
		want time.Duration
	}{
		{b, 30 * time.Minute, 12*time.Hour + 30*time.Minute},
		{b, 110 * time.Hour, 120 * time.Hour}, // capped
		{b, 0, 0},                             // ran out: pbem moved
		{store.Bank{Start: time.Hour, Increment: time.Hour}, 500 * time.Hour, 501 * time.Hour}, // no cap
		{store.Bank{Start: 48 * time.Hour}, 3 * time.Hour, 3 * time.Hour},                      // no increment
	}
	for _, c := range cases {
		if got := After(c.bank, c.left); got != c.want {
			t.Errorf("After(%+v, %v) = %v, want %v", c.bank, c.left, got, c.want)
		}
	}
	if got := Restart(b); got != 12*time.Hour {
		t.Errorf("Restart with an increment = %v, want it", got)
	}
	if got := Restart(store.Bank{Start: 48 * time.Hour}); got != 48*time.Hour {
		t.Errorf("Restart without one = %v, want the start", got)
	}
}

func TestLeft(t *testing.T) {
	t.Parallel()
	night := playclock.Clock{Zone: time.UTC, Quiet: playclock.Quiet{On: true, Start: 22, End: 8}}
	deadline := night.BankEnd(t0, 20*time.Hour) // 13 hours Monday, 7 Tuesday: Tue 15:00
	if want := t0.Add(30 * time.Hour); !deadline.Equal(want) {
		t.Fatalf("the deadline is %v, want %v", deadline, want)
	}
	running := store.Seat{Bank: 20 * time.Hour, Deadline: deadline}
	cases := []struct {
		name string
		st   store.Seat
		away time.Time
		now  time.Time
		want time.Duration
	}{
		{"no decision: the stored bank", store.Seat{Bank: 7 * time.Hour}, time.Time{}, t0, 7 * time.Hour},
		{"on autopilot: none", store.Seat{Bank: 7 * time.Hour, Autopilot: true, Deadline: deadline}, time.Time{}, t0, 0},
		{"at the decision's start", running, time.Time{}, t0, 20 * time.Hour},
		{"a fraction of a second in", running, time.Time{}, t0.Add(300 * time.Millisecond), 20 * time.Hour},
		{"the night does not count", running, time.Time{}, t0.Add(13 * time.Hour), 7 * time.Hour},
		{"inside the night", running, time.Time{}, t0.Add(17 * time.Hour), 7 * time.Hour},
		{"away until Tuesday 12:00", running, t0.Add(27 * time.Hour), t0.Add(14 * time.Hour), 3 * time.Hour},
		{"past the deadline", running, time.Time{}, deadline.Add(time.Minute), 0},
	}
	for _, c := range cases {
		if got := Left(c.st, night, c.away, c.now); got != c.want {
			t.Errorf("%s: Left = %v, want %v", c.name, got, c.want)
		}
	}
}

// fakeReader has one player, alice, in Auckland, away until away.
type fakeReader struct{ away time.Time }

func (f fakeReader) Player(_ context.Context, address string) (store.Player, error) {
	return store.Player{Address: address, TimeZone: "Pacific/Auckland", QuietStart: 22, QuietEnd: 8}, nil
}
func (f fakeReader) AwayUntil(context.Context, string) (time.Time, error) { return f.away, nil }

func TestClocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := t0.Add(12 * time.Hour) // Tuesday 10:00 in Auckland
	g := store.Game{Status: store.StatusActive, Bank: store.Bank{Start: 48 * time.Hour}}
	auckland, _ := time.LoadLocation("Pacific/Auckland")
	clock := playclock.Clock{Zone: auckland, Quiet: playclock.DefaultQuiet}
	seats := []store.Seat{
		{Seat: 0, Name: "alice", Address: "alice@x.test", Bank: 48 * time.Hour, Deadline: clock.BankEnd(start, 48*time.Hour)},
		{Seat: 1, Name: "bob", Address: "bob@y.test", Bank: 30 * time.Hour},
		{Seat: 2, Name: "bea", Address: "bea@bot.pbem.invalid", Bot: "easy", Bank: 48 * time.Hour},
		{Seat: 3, Name: "carol", Address: "carol@z.test", Autopilot: true, Deadline: t0},
		{Seat: 4, Name: "dave", Address: "dave@z.test", State: store.SeatResigned},
	}
	got, err := Clocks(ctx, fakeReader{}, g, seats, start.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []templates.SeatClock{
		{Name: "alice", Left: 47 * time.Hour, Running: true},
		{Name: "bob", Left: 30 * time.Hour},
		{Name: "carol", Autopilot: true},
	}
	if len(got) != len(want) {
		t.Fatalf("Clocks = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("clock %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// On vacation, alice's clock stands still: it is not running.
	if got, _ := Clocks(ctx, fakeReader{away: start.Add(48 * time.Hour)}, g, seats, start.Add(time.Hour)); got[0].Running {
		t.Errorf("alice's clock runs while she is away: %+v", got[0])
	}
	// A paused game shows each bank as its decision began: resume
	// starts it again from there.
	g.Status = store.StatusPaused
	if got, _ := Clocks(ctx, fakeReader{}, g, seats, start.Add(5*time.Hour)); got[0].Left != 48*time.Hour || got[0].Running {
		t.Errorf("paused: alice's clock %+v, want 48h standing", got[0])
	}
	for _, g := range []store.Game{{Status: store.StatusActive}, {Status: store.StatusFinished, Bank: g.Bank}} {
		if got, _ := Clocks(ctx, fakeReader{}, g, seats, t0); got != nil {
			t.Errorf("a game %s with bank %+v shows clocks %+v", g.Status, g.Bank, got)
		}
	}
}
