package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// The bounce key is made once and then read: every call returns it.
func TestBounceKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a, err := s.BounceKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.BounceKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 32 || !bytes.Equal(a, b) {
		t.Errorf("keys %x and %x, want one key of 32 bytes", a, b)
	}
}

// One hard bounce makes an address unreachable; soft bounces do on the
// softDays-th distinct day, not on a second bounce the same day; mail
// from the address makes it reachable and forgets its soft days.
func TestRecordBounce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	day := 24 * time.Hour
	record := func(addr string, hard bool, at time.Time) bool {
		t.Helper()
		var became bool
		mustTx(t, s, func(tx *Tx) error {
			var err error
			became, err = tx.RecordBounce(ctx, addr, hard, "x", at, 3)
			return err
		})
		return became
	}
	unreachable := func(addr string) bool {
		t.Helper()
		u, err := s.IsUnreachable(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if !record("Ann@x.test", true, t0) || !unreachable("ann@x.test") {
		t.Fatal("a hard bounce did not make ann unreachable")
	}
	if record("ann@x.test", true, t0.Add(day)) {
		t.Error("a second hard bounce made ann unreachable again")
	}
	for i, at := range []time.Time{t0, t0.Add(time.Hour), t0.Add(day)} {
		if record("bob@x.test", false, at) || unreachable("bob@x.test") {
			t.Fatalf("soft bounce %d (on %d distinct days at most) made bob unreachable", i, i)
		}
	}
	if !record("bob@x.test", false, t0.Add(3*day)) {
		t.Fatal("soft bounces on three days did not make bob unreachable")
	}
	u, err := s.UnreachableAddress(ctx, "bob@x.test")
	if err != nil || !u.Since.Equal(t0.Add(3*day)) || u.Handled || !u.ProbedAt.IsZero() {
		t.Errorf("bob's record %+v, %v", u, err)
	}
	list, err := s.UnhandledUnreachable(ctx, 10)
	if err != nil || len(list) != 2 || list[0].Address != "ann@x.test" || list[1].Address != "bob@x.test" {
		t.Fatalf("unhandled %+v, %v; want ann then bob", list, err)
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.HandledUnreachable(ctx, "ann@x.test"); err != nil {
			return err
		}
		return tx.Probed(ctx, "ann@x.test", t0.Add(day))
	})
	u, err = s.UnreachableAddress(ctx, "ann@x.test")
	if err != nil || !u.Handled || !u.ProbedAt.Equal(t0.Add(day)) {
		t.Errorf("ann's record %+v, %v; want handled and probed", u, err)
	}
	if list, _ := s.UnhandledUnreachable(ctx, 10); len(list) != 1 {
		t.Errorf("unhandled %+v, want bob alone", list)
	}
	mustTx(t, s, func(tx *Tx) error {
		was, err := tx.Reachable(ctx, "bob@x.test")
		if !was {
			t.Error("bob was not unreachable")
		}
		if was, _ := tx.Reachable(ctx, "carl@x.test"); was {
			t.Error("carl, who never bounced, was unreachable")
		}
		return err
	})
	if _, err := s.UnreachableAddress(ctx, "bob@x.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob still unreachable: %v", err)
	}
	if record("bob@x.test", false, t0.Add(4*day)) {
		t.Error("bob's old soft days still count after he wrote")
	}
}

// The record of a mail (Receive) reads what Reachable asks of its
// sender, which then costs no statement of its own, and answers as it
// would have alone: for a sender with no bounce, one with soft bounces
// alone, one unreachable, one who bounced after his mail was recorded
// (a write that Reachable must see), and an alias of a player's.
func TestReceiveReadsReachable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	day := 24 * time.Hour
	mustTx(t, s, func(tx *Tx) error {
		for _, b := range []struct {
			address string
			hard    bool
			at      time.Time
		}{
			{"soft@x.test", false, t0},
			{"hard@x.test", true, t0},
		} {
			if _, err := tx.RecordBounce(ctx, b.address, b.hard, "x", b.at, 3); err != nil {
				return err
			}
		}
		if err := tx.ensurePlayer(ctx, "ann@x.test"); err != nil {
			return err
		}
		return tx.AddAlias(ctx, Alias{Alias: "ann.work@x.test", Address: "ann@x.test", AliasMailbox: "ann.work@x.test", Mailbox: "ann@x.test"})
	})
	for i, c := range []struct {
		from       string
		bounceNow  bool // a hard bounce recorded after Receive, in its transaction
		was        bool
		statements int64 // Reachable's
		player     string
	}{
		{"clean@x.test", false, false, 0, "clean@x.test"},
		{"Soft@X.test", false, false, 2, "soft@x.test"},    // the two deletes
		{"hard@x.test", false, true, 2, "hard@x.test"},     // the two deletes
		{"later@x.test", true, true, 3, "later@x.test"},    // read again, and the deletes
		{"ann.work@x.test", false, false, 0, "ann@x.test"}, // an alias
	} {
		mustTx(t, s, func(tx *Tx) error {
			in := Inbound{MessageID: fmt.Sprintf("<m%d@x.test>", i), Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1),
				From: c.from, Outcome: "handling", ReceivedAt: t0.Add(day)}
			if _, seen, err := tx.Receive(ctx, in); err != nil || seen {
				return fmt.Errorf("receive from %s: seen %v, %v", c.from, seen, err)
			}
			if c.bounceNow {
				if _, err := tx.RecordBounce(ctx, c.from, true, "x", t0.Add(day), 3); err != nil {
					return err
				}
			}
			start := s.Counts().Statements
			was, err := tx.Reachable(ctx, c.from)
			if n := s.Counts().Statements - start; err != nil || was != c.was || n != c.statements {
				t.Errorf("Reachable(%s) after Receive: was %v, %d statements, %v; want %v and %d", c.from, was, n, err, c.was, c.statements)
			}
			start = s.Counts().Statements
			player, err := tx.PlayerOf(ctx, c.from)
			// The deletes forget what the transaction kept (txMemo.before).
			var want int64
			if c.statements > 0 {
				want = 1
			}
			if n := s.Counts().Statements - start; err != nil || player != c.player || n != want {
				t.Errorf("PlayerOf(%s) after Receive: %q, %d statements, %v; want %q and %d", c.from, player, n, err, c.player, want)
			}
			return nil
		})
		// What Reachable left in the database: no bounce of the sender's.
		if u, err := s.IsUnreachable(ctx, c.from); err != nil || u {
			t.Errorf("%s unreachable after his mail: %v, %v", c.from, u, err)
		}
	}
}
