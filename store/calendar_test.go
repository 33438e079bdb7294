package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCalendarFeed: a player's feed token is made once, is its own
// secret, leads to the decisions he owes now in all his games (and to
// no one else's, nor to a bot's, a resigned or autopiloted seat's, or
// those of a game not active), and a new token ends the old one.
func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	const ann, bob = "ann@x.test", "bob@x.test"
	owed := newGame(t, s, ann, bob)     // ann owes a decision here
	second := newGame(t, s, bob, ann)   // and here, earlier
	paused := newGame(t, s, ann, bob)   // not while it is paused
	resigned := newGame(t, s, ann, bob) // nor where she resigned
	none := newGame(t, s, ann, bob)     // nor where she owes nothing
	d1 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	d2 := d1.Add(-24 * time.Hour)
	var page string
	mustTx(t, s, func(tx *Tx) error {
		for _, g := range []int64{owed, second, paused, resigned, none} {
			if err := tx.SetGameStatus(ctx, g, StatusActive); err != nil {
				return err
			}
		}
		steps := []struct {
			game     int64
			seat     int
			deadline time.Time
		}{{owed, 0, d1}, {owed, 1, d1}, {second, 1, d2}, {paused, 0, d1}, {resigned, 0, d1}}
		for _, st := range steps {
			if err := tx.NewDecision(ctx, st.game, st.seat, t0, st.deadline); err != nil {
				return err
			}
		}
		var err error
		if page, err = tx.EnsureLink(ctx, owed, 0); err != nil {
			return err
		}
		if err := tx.SetGameStatus(ctx, paused, StatusPaused); err != nil {
			return err
		}
		return tx.SetSeatResigned(ctx, resigned, 0)
	})
	if _, err := s.CalendarToken(ctx, ann); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a feed before any was asked for: %v", err)
	}
	var first, again string
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if first, err = tx.EnsureCalendarFeed(ctx, "Ann@X.test"); err != nil {
			return err
		}
		again, err = tx.EnsureCalendarFeed(ctx, ann)
		return err
	})
	if first != again || len(first) != 26 || first == page {
		t.Fatalf("feed token %q then %q (page %q): want one 26-character token of its own", first, again, page)
	}
	feed, err := s.CalendarFeed(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	want := []OwedDecision{
		{GameID: second, Kind: "felix", Seat: 1, Decision: 1, Deadline: d2},
		{GameID: owed, Kind: "felix", Seat: 0, Decision: 1, Deadline: d1, PageToken: page},
	}
	if feed.Address != ann || len(feed.Decisions) != len(want) {
		t.Fatalf("feed = %+v, want ann's %+v", feed, want)
	}
	for i, d := range feed.Decisions {
		if d != want[i] {
			t.Errorf("decision %d = %+v, want %+v", i, d, want[i])
		}
	}

	// A bot or autopilot on the seat: pbem decides, she owes nothing.
	mustTx(t, s, func(tx *Tx) error { return tx.SetSeatAutopilot(ctx, second, 1, true) })
	if feed, err = s.CalendarFeed(ctx, first); err != nil || len(feed.Decisions) != 1 || feed.Decisions[0].GameID != owed {
		t.Errorf("with game %d on autopilot: %+v, %v", second, feed, err)
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetSeatAutopilot(ctx, second, 1, false); err != nil {
			return err
		}
		return tx.SetSeatBot(ctx, second, 1, "easy")
	})
	if feed, err = s.CalendarFeed(ctx, first); err != nil || len(feed.Decisions) != 1 || feed.Decisions[0].GameID != owed {
		t.Errorf("with a bot on her seat of game %d: %+v, %v", second, feed, err)
	}
	mustTx(t, s, func(tx *Tx) error { return tx.ClearDeadline(ctx, owed, 0) })
	if feed, err = s.CalendarFeed(ctx, first); err != nil || feed.Address != ann || len(feed.Decisions) != 0 {
		t.Errorf("owing nothing: %+v, %v; want her feed, empty", feed, err)
	}

	var renewed string
	mustTx(t, s, func(tx *Tx) error {
		var err error
		renewed, err = tx.NewCalendarFeed(ctx, ann)
		return err
	})
	if renewed == first || len(renewed) != 26 {
		t.Fatalf("renewed token %q, old %q", renewed, first)
	}
	if _, err := s.CalendarFeed(ctx, first); !errors.Is(err, ErrNotFound) {
		t.Errorf("the old token still leads somewhere: %v", err)
	}
	if _, err := s.CalendarFeed(ctx, page); !errors.Is(err, ErrNotFound) {
		t.Errorf("the page token leads to a feed: %v", err)
	}
	if feed, err := s.CalendarFeed(ctx, renewed); err != nil || feed.Address != ann {
		t.Errorf("the new token: %+v, %v", feed, err)
	}
}

// TestCalendarFeedScopes: a game's transaction may make a player's
// first feed (the token of his game mail), but a new token is for the
// global lock.
func TestCalendarFeedScopes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@x.test")
	escalated := false
	err := s.GameTx(ctx, g, func(tx *Tx) error {
		if _, err := tx.EnsureCalendarFeed(ctx, "ann@x.test"); err != nil {
			return err
		}
		_, err := tx.NewCalendarFeed(ctx, "ann@x.test")
		if errors.Is(err, ErrWiderLock) {
			escalated = true
		}
		return err
	})
	if err != nil || !escalated {
		t.Errorf("GameTx = %v, escalated %v: want NewCalendarFeed to ask for the global lock, and get it", err, escalated)
	}
}

// TestMoveAddressMovesCalendarFeed: the feed's token keeps working for
// the player at his new address.
func TestMoveAddressMovesCalendarFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	newGame(t, s, oldAddr, "bob@x.test")
	var tok string
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if tok, err = tx.EnsureCalendarFeed(ctx, oldAddr); err != nil {
			return err
		}
		return tx.MoveAddress(ctx, AddressMove{Old: oldAddr, New: newAddr, OldMailbox: oldBox, NewMailbox: newBox})
	})
	if feed, err := s.CalendarFeed(ctx, tok); err != nil || feed.Address != newAddr {
		t.Errorf("after the move the feed is %+v, %v; want %s's", feed, err, newAddr)
	}
	if got, err := s.CalendarToken(ctx, newAddr); err != nil || got != tok {
		t.Errorf("the new address's token %q, %v; want %q", got, err, tok)
	}
}
