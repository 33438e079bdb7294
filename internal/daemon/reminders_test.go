package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/sweeps"
	"github.com/pbem/pbem/store"
)

// zonedPlayers play in three time zones; the first's mail setting is
// digest, so that he gets the last reminder only.
var zonedPlayers = []struct{ addr, zone string }{
	{"bob@y.test", "Europe/Berlin"},
	{"alice@x.test", "Asia/Tokyo"},
	{"carol@z.test", "America/New_York"},
}

// newZonedGame starts a felix game at start, of alice's with bob and
// carol, in their zones, bob on digest, with the game's own deadline if
// not "". Their quiet hours are off: these tests count the reminder steps
// themselves (quiet_test.go has the quiet hours).
func newZonedGame(t *testing.T, w *world, start time.Time, deadline string) (map[string]string, int64) {
	t.Helper()
	w.clock = start.Add(-time.Hour)
	for _, p := range zonedPlayers {
		w.send(p.addr, "pbem@example.test", "timezone "+p.zone)
		w.send(p.addr, "pbem@example.test", "quiet off")
	}
	w.send("bob@y.test", "pbem@example.test", "notify digest 3")
	w.clock = start
	cmd := "new felix with bob@y.test carol@z.test"
	if deadline != "" {
		cmd += " deadline " + deadline
	}
	w.send("alice@x.test", "pbem@example.test", cmd)
	reply := map[string]string{"alice@x.test": w.last("alice@x.test").ReplyTo}
	for _, p := range []string{"bob@y.test", "carol@z.test"} {
		reply[p] = w.last(p).ReplyTo
		w.send(p, reply[p], "join")
	}
	seat, err := w.st.SeatByToken(context.Background(), strings.TrimSuffix(strings.TrimPrefix(reply["alice@x.test"], "pbem+"), "@example.test"))
	if err != nil {
		t.Fatal(err)
	}
	return reply, seat.GameID
}

// reminders lists the reminders in addr's inbox.
func (w *world) reminders(addr string) []received {
	var out []received
	for _, m := range w.inbox[addr] {
		if strings.HasPrefix(m.Headline, "Reminder:") {
			out = append(out, m)
		}
	}
	return out
}

// Every step of the default reminders (halfway, 12 hours before) comes
// once, when due, to players in three time zones across the end of
// daylight-saving time in America (1 November 2026) while the sweep runs
// every ten minutes; the digest player gets the last step only. Each
// reminder keeps the game's thread subject, says "Reminder:" first, and
// states the deadline in the reader's zone.
func TestReminderStepsAcrossZones(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Date(2026, 10, 31, 10, 0, 0, 0, time.UTC)
	_, id := newZonedGame(t, w, start, "48h")
	deadline := start.Add(48 * time.Hour)
	waited := 0
	for i := range zonedPlayers {
		st, err := w.st.Seat(context.Background(), id, i)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Deadline.IsZero() {
			waited++
			if !st.Deadline.Equal(deadline) {
				t.Fatalf("seat %d's deadline %v, want the game's 48 h: %v", i, st.Deadline, deadline)
			}
		}
	}
	if waited != len(zonedPlayers) {
		t.Fatalf("the game waits on %d seats; the test needs all %d", waited, len(zonedPlayers))
	}
	firstSeen := map[string][]time.Time{}
	for w.clock.Before(deadline.Add(-10 * time.Minute)) {
		w.clock = w.clock.Add(10 * time.Minute)
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
		for _, p := range zonedPlayers {
			if n := len(w.reminders(p.addr)); n > len(firstSeen[p.addr]) {
				firstSeen[p.addr] = append(firstSeen[p.addr], w.clock)
			}
		}
	}
	halfway, last := start.Add(24*time.Hour), deadline.Add(-12*time.Hour)
	wantText := map[string]string{
		"alice@x.test": "Mon 2 Nov 19:00 JST",
		"bob@y.test":   "Mon 2 Nov 11:00 CET",
		"carol@z.test": "Mon 2 Nov 05:00 EST", // EDT until 1 November
	}
	for _, p := range zonedPlayers {
		want := []time.Time{halfway, last}
		if p.addr == "bob@y.test" {
			want = []time.Time{last}
		}
		got := firstSeen[p.addr]
		if len(got) != len(want) || len(w.reminders(p.addr)) != len(want) {
			t.Errorf("%s got reminders at %v, want at %v", p.addr, got, want)
			continue
		}
		for i := range want {
			if !got[i].Equal(want[i]) {
				t.Errorf("%s's reminder %d came at %v, want %v", p.addr, i, got[i], want[i])
			}
		}
		for i, m := range w.reminders(p.addr) {
			if !strings.Contains(m.Text, wantText[p.addr]) {
				t.Errorf("%s's reminder does not state the deadline as %s:\n%s", p.addr, wantText[p.addr], m.Text)
			}
			if !strings.HasPrefix(m.Subject, "Felix #") || strings.Contains(m.Subject, "Reminder") {
				t.Errorf("%s's reminder left the game's thread: %q", p.addr, m.Subject)
			}
			if isLast := strings.Contains(m.Text, "the last reminder"); isLast != (i == len(want)-1) {
				t.Errorf("%s's reminder %d says it is the last: %v", p.addr, i, isLast)
			}
		}
	}
}

// A step that would fall before the decision began is skipped: with 10
// hours per decision, "12h" never comes, and halfway is the last step, so
// the digest player gets it too.
func TestReminderStepBeforeTheStartSkipped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	newZonedGame(t, w, start, "10h")
	for range 60 {
		w.clock = w.clock.Add(9 * time.Minute)
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range zonedPlayers {
		rs := w.reminders(p.addr)
		if len(rs) != 1 || !strings.Contains(rs[0].Text, "the last reminder") {
			t.Errorf("%s got %d reminders, want the halfway one only", p.addr, len(rs))
		}
	}
}

// A reminder whose transaction is rolled back (a crash before the commit)
// leaves the seat's step as it was; the redo sends it once, and a step
// found due again after it was sent is not written again.
func TestReminderRedo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_, id := newZonedGame(t, w, start, "48h")
	w.clock = start.Add(24 * time.Hour)
	due, err := w.st.DueReminders(ctx, w.clock)
	if err != nil || len(due) != len(zonedPlayers) {
		t.Fatalf("due reminders %+v, %v", due, err)
	}
	crash := errors.New("killed")
	for _, d := range due {
		err := w.st.Tx(ctx, func(tx *store.Tx) error {
			tt := (&work{Service: w.svc, key: sweeps.ReminderKey(d.GameID, d.Seat, d.Deadline, d.Lead), gameID: d.GameID}).in(ctx, tx)
			if err := tt.remind(d); err != nil {
				return err
			}
			return crash
		})
		if !errors.Is(err, crash) {
			t.Fatal(err)
		}
	}
	if again, _ := w.st.DueReminders(ctx, w.clock); len(again) != len(due) {
		t.Fatalf("a rolled-back reminder moved the step: %+v", again)
	}
	for range 3 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"alice@x.test", "carol@z.test"} {
		if n := len(w.reminders(p)); n != 1 {
			t.Errorf("%s got %d reminders after the redo, want 1", p, n)
		}
	}
	// Found due again (as if the step's move were lost): the mail queued
	// under that step is not written again.
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		for _, d := range due {
			if err := tx.SetReminder(ctx, id, d.Seat, d.At, d.Lead); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice@x.test", "carol@z.test"} {
		if n := len(w.reminders(p)); n != 1 {
			t.Errorf("%s got %d reminders after the step was found due again, want 1", p, n)
		}
	}
}

// A game's own deadline is stated in its first mails and is the time of
// every decision: the default move comes when it passes, not at the
// service's turn time.
func TestGameDeadline(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// 08:00 UTC: 36 hours end at 20:00 and then at 08:00, outside the
	// players' quiet hours (22-8 in UTC, their zone).
	start := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	w.clock = start
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test deadline 36 hours")
	const said = "You have 36 hours for each decision"
	if !strings.Contains(w.last("alice@x.test").Text, said) || !strings.Contains(w.last("bob@y.test").Text, said) {
		t.Fatalf("the first mails do not state the game's deadline:\n%s\n%s", w.last("alice@x.test").Text, w.last("bob@y.test").Text)
	}
	for _, p := range []string{"bob@y.test", "carol@z.test"} {
		w.send(p, w.last(p).ReplyTo, "join")
	}
	for _, p := range []string{"alice@x.test", "bob@y.test", "carol@z.test"} {
		if m := w.last(p); !strings.Contains(m.Text, said) {
			t.Errorf("%s's start mail does not state the deadline:\n%s", p, m.Text)
		}
	}
	seat, err := w.st.SeatByToken(context.Background(), strings.TrimSuffix(strings.TrimPrefix(w.last("alice@x.test").ReplyTo, "pbem+"), "@example.test"))
	if err != nil {
		t.Fatal(err)
	}
	id := seat.GameID
	if g, err := w.st.Game(context.Background(), id); err != nil || g.TurnTime != 36*time.Hour {
		t.Fatalf("stored turn time %v, %v", g.TurnTime, err)
	}
	w.clock = start.Add(36*time.Hour - time.Minute)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := w.moves(id); n != 0 {
		t.Fatalf("%d default moves before the game's deadline", n)
	}
	w.clock = start.Add(36 * time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if w.moves(id) == 0 {
		t.Fatal("no default move when the game's 36 hours passed")
	}
	// The next decisions have 36 hours too.
	for i := range 3 {
		st, err := w.st.Seat(context.Background(), id, i)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Deadline.IsZero() && !st.Deadline.Equal(w.clock.Add(36*time.Hour)) {
			t.Errorf("seat %d's next deadline %v, want 36 hours from %v", i, st.Deadline, w.clock)
		}
	}
}

// A deadline out of range is refused with the range, and no game made.
func TestGameDeadlineOutOfRange(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, d := range []string{"30m", "15 days"} {
		w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test deadline "+d)
		if m := w.last("alice@x.test"); !strings.Contains(strings.Join(strings.Fields(m.Text), " "), "between 1 hour and 14 days, not "+d) {
			t.Errorf("deadline %s: answer does not say the range:\n%s", d, m.Text)
		}
		if n := len(w.inbox["bob@y.test"]); n != 0 {
			t.Errorf("deadline %s: bob was invited", d)
		}
	}
}

// The status says whom the game waits on and since when, in the reader's
// zone: the decision's start, stored when it began.
func TestStatusSaysSinceWhen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC)
	w.clock = start.Add(-time.Hour)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	for _, p := range players {
		w.send(p, "pbem@example.test", "timezone Europe/Berlin")
	}
	w.clock = start
	reply, id := w.startGame("gracias", players...)
	tb := w.loaded(id)
	waits := tb.State.Waiting()
	if len(waits) != 1 {
		t.Fatalf("gracias waits on %v at the start; the test needs one", waits)
	}
	reader := players[(waits[0]+1)%len(players)]
	w.clock = start.Add(5 * time.Hour)
	w.send(reader, reply[reader], "status")
	want := "Waiting for " + tb.Names[waits[0]] + " (since Tue 24 Nov 18:00 CET)"
	if got := strings.Join(strings.Fields(w.last(reader).Text), " "); !strings.Contains(got, want) {
		t.Errorf("%s's status does not say %q:\n%s", reader, want, w.last(reader).Text)
	}
}

// An extension gives the new deadline the steps still to come: a player
// whose 12-hour reminder came gets the new deadline's.
func TestExtendedDeadlineReminded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_, id := newZonedGame(t, w, start, "48h")
	w.clock = start.Add(37 * time.Hour) // both steps due: the latest is sent
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.reminders("alice@x.test")); n != 1 {
		t.Fatalf("alice got %d reminders for two due steps, want the latest only", n)
	}
	if err := w.svc.Admin(ctx, id, admin.ExtendAct{Who: "alice", By: 24 * time.Hour}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	w.clock = start.Add(37*time.Hour + 24*time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.reminders("alice@x.test")); n != 2 {
		t.Errorf("alice got %d reminders, want one more for the extended deadline", n)
	}
	if n := len(w.reminders("carol@z.test")); n != 1 {
		t.Errorf("carol (not extended) got %d reminders, want 1", n)
	}
}
