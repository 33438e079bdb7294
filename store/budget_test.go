package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// A bucket allows max units per window, drops what is older, and Note
// counts past the limit.
func TestBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	spend := func(at time.Time) bool {
		var ok bool
		mustTx(t, s, func(tx *Tx) error {
			var err error
			ok, err = tx.Spend(ctx, "Bob@Example.org", "answers", at, time.Hour, 2)
			return err
		})
		return ok
	}
	if !spend(t0) || !spend(t0.Add(time.Minute)) || spend(t0.Add(2*time.Minute)) {
		t.Fatal("two units an hour: the third was allowed, or one of the first two refused")
	}
	if !spend(t0.Add(time.Hour + time.Second)) {
		t.Error("the first unit did not leave the window")
	}
	if n := count(t, s, "budget"); n != 2 {
		t.Errorf("%d rows kept, want the 2 in the window", n)
	}
	var n int
	mustTx(t, s, func(tx *Tx) error {
		for i := 0; i < 5; i++ {
			var err error
			if n, err = tx.Note(ctx, "robot@x.org", "exchange", t0, time.Minute); err != nil {
				return err
			}
		}
		return nil
	})
	if n != 5 {
		t.Errorf("Note counted %d, want 5", n)
	}
}

// FreeAt tells when a bucket holds fewer than a number of units again,
// if no more are taken: when the newest of those that must go leaves the
// window.
func TestFreeAt(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	free := func(now time.Time, below int) time.Time {
		var at time.Time
		mustTx(t, s, func(tx *Tx) error {
			var err error
			at, err = tx.FreeAt(ctx, "robot@x.org", "exchange", now, time.Minute, below)
			return err
		})
		return at
	}
	if got := free(t0, 1); !got.Equal(t0) {
		t.Errorf("an empty bucket is free at %v, want now (%v)", got, t0)
	}
	mustTx(t, s, func(tx *Tx) error {
		for _, at := range []time.Time{t0, t0.Add(10 * time.Second), t0.Add(20 * time.Second)} {
			if _, err := tx.Note(ctx, "Robot@X.org", "exchange", at, time.Minute); err != nil {
				return err
			}
		}
		return nil
	})
	now := t0.Add(30 * time.Second)
	for _, tc := range []struct {
		below int
		want  time.Time
	}{
		{1, t0.Add(80 * time.Second)}, // all three must go: the newest leaves last
		{2, t0.Add(70 * time.Second)},
		{3, t0.Add(60 * time.Second)},
		{4, now}, // three are fewer than four already
	} {
		if got := free(now, tc.below); !got.Equal(tc.want) {
			t.Errorf("fewer than %d: free at %v, want %v", tc.below, got, tc.want)
		}
	}
	// A unit that has left the window is not waited for.
	if got := free(t0.Add(75*time.Second), 1); !got.Equal(t0.Add(80 * time.Second)) {
		t.Errorf("after two units left: free at %v, want %v", got, t0.Add(80*time.Second))
	}
	if got := free(t0.Add(75*time.Second), 2); !got.Equal(t0.Add(75 * time.Second)) {
		t.Errorf("one unit left is fewer than two: free at %v", got)
	}
}

// InviteStatus tells a mailbox's `never` and whether it ever answered:
// by the key it is given, which the daemon makes of a mailbox.
func TestInviteStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	newGame(t, s, "ann@example.org", "bob@example.org")
	status := func(key string) (bool, bool) {
		never, answered, err := s.InviteStatus(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return never, answered
	}
	if never, answered := status("bob@example.org"); never || answered {
		t.Errorf("an invited address: never %v, answered %v", never, answered)
	}
	if never, answered := status("stranger@example.org"); never || answered {
		t.Errorf("an unknown address: never %v, answered %v", never, answered)
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.MarkAnswered(ctx, "bob@example.org", t0); err != nil {
			return err
		}
		if err := tx.MarkAnswered(ctx, "bob@example.org", t0.Add(time.Hour)); err != nil {
			return err // a second mark changes nothing
		}
		return tx.SetNoInvitations(ctx, "stranger@example.org", true)
	})
	if never, answered := status("bob@example.org"); never || !answered {
		t.Errorf("bob answered: never %v, answered %v", never, answered)
	}
	if never, answered := status("stranger@example.org"); !never || answered {
		t.Errorf("stranger said never: never %v, answered %v", never, answered)
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetNoInvitations(ctx, "bob@example.org", true); err != nil {
			return err
		}
		return tx.SetNoInvitations(ctx, "stranger@example.org", false)
	})
	if never, answered := status("bob@example.org"); !never || !answered {
		t.Errorf("bob said never after answering: never %v, answered %v", never, answered)
	}
	if never, _ := status("stranger@example.org"); never {
		t.Error("never was not lifted")
	}
}

// A detail that is not UTF-8 is stored quoted, its bytes as \xNN.
func TestInboundDetailNotUTF8(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.RecordInbound(ctx, Inbound{MessageID: "x@y", Mailbox: "INBOX", UIDValidity: 1, UID: 1, From: "a@b.c",
			Outcome: "unusable", Detail: "bad \xff\xfe bytes", ReceivedAt: t0})
		return err
	})
	in, err := s.InboundByMessageID(ctx, "x@y")
	if err != nil || in.Detail != `"bad \xff\xfe bytes"` {
		t.Errorf("detail %q, %v", in.Detail, err)
	}
}

// TestSpendKeepsWhatTheTransactionRead: spending or noting a unit
// forgets nothing the transaction kept (a game's row, its seats), as it
// writes budget alone, and on PostgreSQL each is one statement, where
// SQLite runs the key's look-up, the drop, the count and the unit one by
// one.
func TestSpendKeepsWhatTheTransactionRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.Game(ctx, g); err != nil {
			return err
		}
		if _, err := tx.Seats(ctx, g); err != nil {
			return err
		}
		before := s.Counts().Statements
		for i, want := range []bool{true, true, false} {
			ok, err := tx.Spend(ctx, "Bob@Example.org", "answers", t0.Add(time.Duration(i)*time.Second), time.Hour, 2)
			if err != nil {
				return err
			}
			if ok != want {
				t.Errorf("unit %d of a budget of 2: spent %v, want %v", i+1, ok, want)
			}
		}
		perSpend := 4 // the key, the drop, the count, the unit
		if s.Engine() == PostgreSQL {
			perSpend = 1
		}
		// The key is kept after the first: SQLite looks it up once.
		want := int64(3 * perSpend)
		if s.Engine() == SQLite {
			want = 4 + 3 + 2 // the last, refused, takes no unit
		}
		if got := s.Counts().Statements - before; got != want {
			t.Errorf("three spends ran %d statements on %s, want %d", got, s.Engine(), want)
		}
		before = s.Counts().Statements
		for i := range 2 {
			n, err := tx.Note(ctx, "bob@example.org", "exchange", t0.Add(time.Duration(i)*time.Second), time.Minute)
			if err != nil {
				return err
			}
			if n != i+1 {
				t.Errorf("note %d counted %d", i+1, n)
			}
		}
		perNote := 3 // the unit, the drop, the count
		if s.Engine() == PostgreSQL {
			perNote = 1
		}
		if got := s.Counts().Statements - before; got != int64(2*perNote) {
			t.Errorf("two notes ran %d statements on %s, want %d", got, s.Engine(), 2*perNote)
		}
		// Spent, of an address the transaction has not met: the key,
		// the drop and the count, in one statement on PostgreSQL.
		before = s.Counts().Statements
		if n, err := tx.Spent(ctx, "Carl@Example.org", "exchange", t0, time.Minute); err != nil || n != 0 {
			t.Errorf("carl's units: %d, %v; want none", n, err)
		}
		if n, err := tx.Spent(ctx, "bob@example.org", "exchange", t0.Add(30*time.Second), time.Minute); err != nil || n != 2 {
			t.Errorf("bob's units a minute back from 30 s after the first: %d, %v; want 2", n, err)
		}
		if n, err := tx.Spent(ctx, "bob@example.org", "exchange", t0.Add(60*time.Second), time.Minute); err != nil || n != 1 {
			t.Errorf("bob's units a minute back from 60 s after the first: %d, %v; want 1, the first dropped", n, err)
		}
		// SQLite: carl's key, then the drop and the count of each.
		if got, want := s.Counts().Statements-before, map[Engine]int64{SQLite: 1 + 3*2, PostgreSQL: 3}[s.Engine()]; got != want {
			t.Errorf("three counts ran %d statements on %s, want %d", got, s.Engine(), want)
		}
		before = s.Counts().Statements
		if _, err := tx.Game(ctx, g); err != nil {
			return err
		}
		if _, err := tx.Seats(ctx, g); err != nil {
			return err
		}
		if got := s.Counts().Statements - before; got != 0 {
			t.Errorf("the game and its seats were read again after spending (%d statements): the spend forgot them", got)
		}
		return nil
	})
	if n := count(t, s, "budget"); n != 3 {
		t.Errorf("%d units in the budget, want the 2 spent and the second noted (the first dropped)", n)
	}
}

// TestAnsweredKept: a transaction asks once whether a mailbox answered
// pbem, knows without asking that one it marked did, and asks again
// once the mailboxes' rows may have moved.
func TestAnsweredKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var tx *Tx // the transaction ask asks in
	ask := func(box string, want bool, wantStatements int64) {
		t.Helper()
		before := s.Counts().Statements
		got, err := tx.Answered(ctx, box)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("Answered(%s) = %v, want %v", box, got, want)
		}
		if n := s.Counts().Statements - before; n != wantStatements {
			t.Errorf("Answered(%s) ran %d statements, want %d", box, n, wantStatements)
		}
	}
	mustTx(t, s, func(in *Tx) error {
		tx = in
		ask("Ann@Example.org", false, 1)
		ask("ann@example.org", false, 0)
		if err := tx.MarkAnswered(ctx, "ann@example.org", t0); err != nil {
			return err
		}
		ask("ann@example.org", true, 0)
		ask("bob@example.org", false, 1)
		// A mailbox's row moved (MoveAddress): every answer is asked again.
		if _, err := tx.exec(ctx, `UPDATE mailboxes SET mailbox = ? WHERE mailbox = ?`, "ann2@example.org", "ann@example.org"); err != nil {
			return err
		}
		ask("ann@example.org", false, 1)
		ask("ann2@example.org", true, 1)
		return nil
	})
	var answered bool
	mustTx(t, s, func(tx *Tx) error {
		var err error
		_, answered, err = tx.InviteStatus(ctx, "ann2@example.org")
		return err
	})
	if !answered {
		t.Error("the mark did not reach the database")
	}

	// A mail's record reads whether its sender's mailbox answered: one
	// that did needs no mark, and is known to have without a statement.
	mustTx(t, s, func(in *Tx) error {
		tx = in
		for i, c := range []struct {
			box      string
			answered bool
		}{{"Ann2@Example.org", true}, {"zed@example.org", false}} {
			rec := Inbound{MessageID: fmt.Sprintf("<a%d@x.test>", i), Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1),
				From: c.box, Outcome: "handling", ReceivedAt: t0, SenderMailbox: c.box}
			if _, seen, err := tx.Receive(ctx, rec); err != nil || seen {
				t.Fatalf("Receive: seen %v, %v", seen, err)
			}
			ask(c.box, c.answered, 0)
			before := s.Counts().Statements
			if err := tx.MarkAnswered(ctx, c.box, t0); err != nil {
				return err
			}
			if n := s.Counts().Statements - before; (n == 0) != c.answered {
				t.Errorf("MarkAnswered(%s) ran %d statements; answered before: %v", c.box, n, c.answered)
			}
			ask(c.box, true, 0)
		}
		return nil
	})
}

// TestSpentEach: the counts of several budgets are Spent's, each in its
// window, units dropped as Spent drops them, and on PostgreSQL in one
// round trip, in a game's transaction too (each address under its lock).
func TestSpentEach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		for i := range 3 {
			if _, err := tx.Spend(ctx, "ann@example.org", "invites", t0.Add(time.Duration(i)*time.Minute), time.Hour, 10); err != nil {
				return err
			}
		}
		_, err := tx.Spend(ctx, "bob@example.org", "invites", t0, time.Hour, 10)
		return err
	})
	windows := []BudgetWindow{
		{Address: "Ann@Example.org", Bucket: "invites", Now: t0.Add(90 * time.Second), Window: time.Minute}, // the second and third
		{Address: "bob@example.org", Bucket: "invites", Now: t0.Add(time.Minute), Window: time.Hour},
		{Address: "carl@example.org", Bucket: "invites", Now: t0, Window: time.Hour},                     // none, nor a key
		{Address: "ann@example.org", Bucket: "invites", Now: t0.Add(2 * time.Minute), Window: time.Hour}, // the first was dropped above
	}
	// The second pass counts the round trips: the first time a
	// connection meets a statement, pgx prepares it, a round trip more.
	for pass := range 2 {
		for _, game := range []int64{0, g} {
			spentEachIn(t, s, game, windows, pass == 1)
		}
	}
	if n := count(t, s, "budget"); n != 3 {
		t.Errorf("%d units left, want 3: ann's first dropped", n)
	}
}

// spentEachIn runs SpentEach in game's transaction (0: Store.Tx) and
// checks its counts, and with trips its round trips on PostgreSQL.
func spentEachIn(t *testing.T, s *Store, game int64, windows []BudgetWindow, trips bool) {
	t.Helper()
	ctx := context.Background()
	var got []int
	n := tripsIn(t, s, game, func(tx *Tx) (err error) {
		got, err = tx.SpentEach(ctx, windows)
		return err
	})
	if !slices.Equal(got, []int{2, 1, 0, 2}) {
		t.Errorf("in game %d's transaction: counts %v, want [2 1 0 2]", game, got)
	}
	if s.Engine() == PostgreSQL && trips && n != 1 {
		t.Errorf("in game %d's transaction: %d round trips, want 1", game, n)
	}
}

// TestSpendEach: units are spent in their order, each seeing those the
// ones before it took, below each window's Max; on PostgreSQL in one
// round trip, in a game's transaction too.
func TestSpendEach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	// Each pass spends in buckets of its own; the second counts the
	// round trips, once pgx has prepared the statements.
	for pass, game := range []int64{0, g, 0, g} {
		bucket := fmt.Sprintf("invites-%d", pass)
		unit := func(address string, max int) BudgetWindow {
			return BudgetWindow{Address: address, Bucket: bucket, Now: t0, Window: time.Hour, Max: max}
		}
		var took []bool
		trips := tripsIn(t, s, game, func(tx *Tx) (err error) {
			took, err = tx.SpendEach(ctx, []BudgetWindow{unit("Ann@Example.org", 2), unit("carl@example.org", 1), unit("ann@example.org", 2), unit("ann@example.org", 2)})
			return err
		})
		if !slices.Equal(took, []bool{true, true, true, false}) {
			t.Errorf("pass %d: took %v, want ann's first two, carl's, and not ann's third", pass, took)
		}
		if s.Engine() == PostgreSQL && pass >= 2 && trips != 1 {
			t.Errorf("pass %d: %d round trips, want 1", pass, trips)
		}
	}
	if n := count(t, s, "budget"); n != 4*3 {
		t.Errorf("%d units spent, want 3 in each of 4 passes", n)
	}
}

// tripsIn runs fn in game's transaction (0: Store.Tx), fails the test
// on its error, and returns the round trips fn took (0 on SQLite).
func tripsIn(t *testing.T, s *Store, game int64, fn func(*Tx) error) int64 {
	t.Helper()
	var n int64
	run := func(tx *Tx) error {
		before := s.Counts().RoundTrips
		err := fn(tx)
		n = s.Counts().RoundTrips - before
		return err
	}
	var err error
	if game == 0 {
		err = s.Tx(context.Background(), run)
	} else {
		err = s.GameTx(context.Background(), game, run)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}
