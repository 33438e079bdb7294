package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/store"
)

// deadline is a seat's deadline as stored.
func (w *world) deadline(id int64, seat int) time.Time {
	w.t.Helper()
	st, err := w.st.Seat(context.Background(), id, seat)
	if err != nil {
		w.t.Fatal(err)
	}
	return st.Deadline
}

// said reports whether one of addr's mails since the first n says text,
// its lines joined.
func (w *world) said(addr string, n int, text string) bool {
	for _, m := range w.inbox[addr][n:] {
		if strings.Contains(strings.Join(strings.Fields(m.Text), " "), text) {
			return true
		}
	}
	return false
}

// A vacation pushes the player's deadlines in every game by its length,
// so each keeps exactly the time it had left; no reminder and no default
// move falls due while he is away; the tables are told when he leaves,
// until when, and when he is back.
func TestVacationPushesDeadlinesInEveryGame(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, g1 := w.startGame("felix", players...)
	_, g2 := w.startGame("felix", players...)
	w.clock = w.clock.Add(42 * time.Hour)
	before := []time.Time{w.deadline(g1, 0), w.deadline(g2, 0)}
	bobBefore := w.deadline(g1, 1)
	left := before[0].Sub(w.clock)
	bobMails := len(w.inbox["bob@y.test"])

	w.send("alice@x.test", "pbem@example.test", "vacation 5d")
	answer := strings.Join(strings.Fields(w.last("alice@x.test").Text), " ")
	if !strings.Contains(answer, "You are away until Sat 28 Nov 04:00 UTC") || !strings.Contains(answer, "all 2 of your running games") ||
		!strings.Contains(answer, "you have 16 of your 21 days left in 2026") {
		t.Fatalf("vacation answer:\n%s", answer)
	}
	for i, id := range []int64{g1, g2} {
		got := w.deadline(id, 0)
		if !got.Equal(before[i].Add(5 * 24 * time.Hour)) {
			t.Errorf("game %d: alice's deadline %s, want %s pushed by 5 days", id, got, before[i])
		}
	}
	if !w.deadline(g1, 1).Equal(bobBefore) {
		t.Errorf("bob's deadline moved with alice's vacation")
	}
	if n := len(w.inbox["bob@y.test"]) - bobMails; n != 2 {
		t.Errorf("bob got %d mails, want one from each table", n)
	}
	if !w.said("bob@y.test", bobMails, "alice is away until Sat 28 Nov 04:00 UTC; his deadlines wait for him.") {
		t.Errorf("bob was not told:\n%s", w.last("bob@y.test").Text)
	}
	for _, st := range []int64{g1, g2} {
		if !w.said("carol@z.test", 0, "alice is away until") {
			t.Errorf("game %d: carol was not told", st)
		}
	}
	ok, until, err := w.onVacation("alice@x.test")
	if err != nil || !ok || !until.Equal(w.clock.Add(5*24*time.Hour)) {
		t.Errorf("onVacation: %v, %s, %v", ok, until, err)
	}

	// Past the deadline she had before leaving: nothing falls due for
	// her, neither a reminder nor a default move.
	aliceMails := len(w.inbox["alice@x.test"])
	w.clock = before[0].Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := w.moves(g1); n != 0 {
		// The others have not moved either: their own deadlines, 72
		// hours from the start, have passed; only alice's seat matters.
		for _, m := range w.movesOf(g1) {
			if m.Seat == 0 {
				t.Errorf("a move for alice while she is away: %+v", m)
			}
		}
	}
	for _, m := range w.inbox["alice@x.test"][aliceMails:] {
		if strings.Contains(m.Text, "Reminder") || strings.Contains(oneLine(m.Text), "bot played for you") {
			t.Errorf("alice was reminded or moved for while away:\n%s", m.Text)
		}
	}

	// She is back when the vacation runs out: the tables hear it, and
	// her deadline has the time it had left when she left.
	w.clock = until
	bobMails = len(w.inbox["bob@y.test"])
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if !w.said("bob@y.test", bobMails, "alice is back from vacation; his deadlines run again.") {
		t.Errorf("bob was not told alice is back")
	}
	if ok, _, _ := w.onVacation("alice@x.test"); ok {
		t.Errorf("alice is still away after her vacation ran out")
	}
	if got := w.deadline(g2, 0).Sub(w.clock); got != left {
		t.Errorf("back, alice has %s left, want the %s she had when she left", got, left)
	}
	// The deadline then falls due as ever.
	w.clock = w.deadline(g2, 0)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range w.movesOf(g2) {
		found = found || (m.Seat == 0 && m.Source == store.SourceDeadline)
	}
	if !found {
		t.Errorf("no default move for alice once her deadline passed after her return")
	}
}

// onVacation reports whether the store holds addr's vacation as not yet
// ended (by back, or by the sweep after it ran out), and until when.
func (w *world) onVacation(addr string) (away bool, until time.Time, err error) {
	err = w.st.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		until, err = tx.AwayUntil(context.Background(), addr)
		return err
	})
	return !until.IsZero(), until, err
}

func (w *world) movesOf(id int64) []store.Move {
	w.t.Helper()
	ms, err := w.st.Moves(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	return ms
}

// A vacation that starts while it is the player's turn pushes that
// deadline; back early pulls it back by the part not used, so that it has
// exactly what it had when he left. It works in a game's thread.
func TestVacationDuringTurnAndBackEarly(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.clock = w.clock.Add(10 * time.Hour)
	d := w.deadline(id, 0)
	left := d.Sub(w.clock)
	w.send("alice@x.test", reply["alice@x.test"], "vacation 4d")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "You are away until") {
		t.Fatalf("answer in the game's thread:\n%s", got)
	}
	if got := w.deadline(id, 0); !got.Equal(d.Add(4 * 24 * time.Hour)) {
		t.Fatalf("deadline %s, want %s pushed by 4 days", got, d)
	}
	w.clock = w.clock.Add(30 * time.Hour)
	bobMails := len(w.inbox["bob@y.test"])
	w.send("alice@x.test", reply["alice@x.test"], "back")
	answer := strings.Join(strings.Fields(w.last("alice@x.test").Text), " ")
	if !strings.Contains(answer, "Welcome back") || !strings.Contains(answer, "This vacation counts 2 days; you have 19 of your 21 days left in 2026") {
		t.Errorf("back answer:\n%s", answer)
	}
	if got := w.deadline(id, 0).Sub(w.clock); got != left {
		t.Errorf("after back, %s left, want %s", got, left)
	}
	if !w.said("bob@y.test", bobMails, "alice is back from vacation") {
		t.Errorf("the table was not told alice is back")
	}
	if ok, _, _ := w.onVacation("alice@x.test"); ok {
		t.Errorf("still away after back")
	}
	w.send("alice@x.test", "pbem@example.test", "back")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "You are not on vacation") {
		t.Errorf("back when not away:\n%s", got)
	}
}

// The allowance: a vacation beyond it is refused with what is left; the
// days not used come back with back; an extension counts the whole
// vacation; dates are the end of that day in the player's zone.
func TestVacationAllowance(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	a := "alice@x.test"
	ask := func(body, want string) {
		t.Helper()
		w.send(a, "pbem@example.test", body)
		if got := strings.Join(strings.Fields(w.last(a).Text), " "); !strings.Contains(got, want) {
			t.Errorf("%s: answer lacks %q:\n%s", body, want, got)
		}
	}
	ask("vacation 22d", "Not done: that vacation would count 22 days, and you have 21 of your 21 days left in 2026.")
	ask("vacation 15d", "you have 6 of your 21 days left in 2026")
	ask("vacation 10d", "Not done: you are already away until Sun 6 Dec 10:00 UTC")
	// An extension counts the whole vacation.
	ask("vacation 22d", "Not done: that would add 7 days to your vacation, and you have 6 of your 21 days left in 2026.")
	ask("vacation 16d", "You are away until Mon 7 Dec 10:00 UTC. You have no running game now")
	ask("vacation 2d", "Not done: you are already away until Mon 7 Dec 10:00 UTC")
	w.clock = w.clock.Add(48 * time.Hour)
	ask("back", "This vacation counts 2 days; you have 19 of your 21 days left in 2026")
	ask("vacation 20d", "Not done: that vacation would count 20 days, and you have 19 of your 21 days left in 2026.")
	ask("vacation until 2026-11-20", "Not done: Fri 20 Nov 2026 is in the past")
	ask("timezone Europe/Berlin", "Europe/Berlin")
	// 2026-11-23 10:00 UTC is 11:00 in Berlin; the end of 24 November
	// there is 00:00 CET on the 25th: 37 hours, 2 days.
	ask("vacation until 2026-11-24", "You are away until Wed 25 Nov 00:00 CET. You have no running game now; the deadlines of games you start or join while away wait for you: each will have the time it had left, and a decision that comes while you are away gets its full time from your return. This vacation counts 2 days; you have 17 of your 21 days left in 2026.")
	w.clock = w.clock.Add(time.Hour) // a day begun counts whole
	ask("back", "you have 18 of your 21 days left in 2026")
	// A new year, a new allowance.
	w.clock = time.Date(2027, 1, 1, 10, 0, 0, 0, time.UTC)
	ask("vacation 21d", "you have 0 of your 21 days left in 2027")
	// Run out, before the sweep noticed: the next vacation is one of its
	// own, from now, not an extension of the old.
	w.clock = w.clock.Add(30 * 24 * time.Hour)
	if ok, _, _ := w.onVacation(a); !ok {
		t.Fatalf("away until the sweep ends the vacation")
	}
	ask("vacation 1d", "Not done: that vacation would count 1 day, and you have 0 of your 21 days left in 2027.")
	if ok, _, _ := w.onVacation(a); ok {
		t.Errorf("a vacation that ran out was not ended")
	}
}

// A pbem with no vacation days refuses them.
func TestVacationNone(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) { c.Limits = unlimited; c.VacationDays = 0 }).authenticate()
	w.send("alice@x.test", "pbem@example.test", "vacation 1d")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "allows no vacations") {
		t.Errorf("answer:\n%s", got)
	}
}

// A decision that comes while the player is away gets its full turn time
// from his return: here, a paused game resumed during the vacation.
func TestVacationFreshDeadlineFromReturn(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	ctx := context.Background()
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Pause}, "admin@x.test"); err != nil {
		t.Fatal(err)
	}
	w.send("alice@x.test", "pbem@example.test", "vacation 3d")
	until := w.clock.Add(3 * 24 * time.Hour)
	w.clock = w.clock.Add(time.Hour)
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Resume}, "admin@x.test"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got, want := w.deadline(id, 0), until.Add(w.svc.cfg.TurnTime); !got.Equal(want) {
		t.Errorf("alice's fresh deadline %s, want her return plus the turn time, %s", got, want)
	}
	if got, want := w.deadline(id, 1), w.clock.Add(w.svc.cfg.TurnTime); !got.Equal(want) {
		t.Errorf("bob's fresh deadline %s, want %s", got, want)
	}
}

// TestVacationReturnAfterExtension: the sweep (of this node or another)
// found alice's vacation over, and before its transaction she extended
// it. The transaction reads her vacation again: she is still away, her
// table is not told she is back, and her extension stands.
func TestVacationReturnAfterExtension(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)
	w.send("alice@x.test", reply["alice@x.test"], "vacation 1d")
	if ok, _, err := w.onVacation("alice@x.test"); !ok || err != nil {
		t.Fatalf("alice not away after vacation 1d (%v)", err)
	}
	w.clock = w.clock.Add(3 * 24 * time.Hour)
	back, err := w.st.Returned(ctx, w.clock)
	if err != nil || len(back) != 1 {
		t.Fatalf("returned: %v, %v; want alice", back, err)
	}
	extended := w.clock.Add(48 * time.Hour)
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		cur, err := tx.CurrentVacation(ctx, "alice@x.test")
		if err != nil {
			return err
		}
		return tx.ExtendVacation(ctx, cur, extended)
	})
	if err != nil {
		t.Fatal(err)
	}
	bobMails := len(w.inbox["bob@y.test"])
	if err := w.svc.Sweeper().ReturnDue(ctx, back); err != nil {
		t.Fatal(err)
	}
	w.flush()
	away, until, err := w.onVacation("alice@x.test")
	if err != nil || !away || !until.Equal(extended) {
		t.Errorf("after the late return: away %t until %s (%v); want away until %s", away, until, err, extended)
	}
	if w.said("bob@y.test", bobMails, "alice is back from vacation") {
		t.Errorf("the table was told alice is back, though she extended her vacation")
	}
}
