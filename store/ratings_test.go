package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRatings: a rated game's players stand with each other by name (the
// chosen one, else the game's), a new name keeps the rating, a game is
// rated once, and an unrated game leaves the kind's other games to
// compute the ratings from.
func TestRatings(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	ann, bob, cy := "ann@x.test", "bob@x.test", "cy@x.test"
	var g1, g2 int64
	err := s.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.UpsertPlayer(ctx, ann, "Ann"); err != nil {
			return err
		}
		if _, err := tx.UpsertPlayer(ctx, bob, ""); err != nil {
			return err
		}
		for _, id := range []*int64{&g1, &g2} {
			var err error
			if *id, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: ann, CreatedAt: time.Unix(0, 0), TurnTime: time.Hour}); err != nil {
				return err
			}
		}
		if err := tx.RateGame(ctx, RatedGame{GameID: g1, Kind: "felix", At: time.Unix(100, 0), Seats: []RatedSeat{{Address: ann, Mailbox: ann, Name: "ann", Rank: 1}, {Address: bob, Mailbox: bob, Name: "bobby", Rank: 2}}},
			[]PlayerRating{{Kind: "felix", Mailbox: ann, Mu: 27, Sigma: 8, Games: 1}, {Kind: "felix", Mailbox: bob, Mu: 23, Sigma: 8, Games: 1}}); err != nil {
			return err
		}
		return tx.RateGame(ctx, RatedGame{GameID: g2, Kind: "felix", At: time.Unix(200, 0), Seats: []RatedSeat{{Address: bob, Mailbox: bob, Name: "bob", Rank: 1}, {Address: cy, Mailbox: cy, Name: "cy", Rank: 2}}},
			[]PlayerRating{{Kind: "felix", Mailbox: bob, Mu: 26, Sigma: 7, Games: 2}, {Kind: "felix", Mailbox: cy, Mu: 22, Sigma: 8, Games: 1}})
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Standings(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	// Best first: bob's 26 - 3*7 = 5 before ann's 27 - 3*8 = 3.
	if len(st) != 2 || st[0].Name != "bob" || st[0].Games != 2 || st[1].Name != "Ann" {
		t.Fatalf("ann's standings: %+v", st)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetPlayerName(ctx, bob, "robert") }); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Standings(ctx, ann); len(st) != 2 || st[0].Name != "robert" || st[0].Mu != 26 {
		t.Fatalf("after bob's rename: %+v", st)
	}
	if st, _ := s.Standings(ctx, bob); len(st) != 3 {
		t.Fatalf("bob stands with %d, want 3: %+v", len(st), st)
	}
	err = s.Tx(ctx, func(tx *Tx) error {
		return tx.RateGame(ctx, RatedGame{GameID: g1, Kind: "felix", At: time.Unix(300, 0)}, nil)
	})
	if err == nil {
		t.Fatal("a game was rated twice")
	}
	err = s.Tx(ctx, func(tx *Tx) error {
		kind, rest, err := tx.UnrateGame(ctx, g1)
		if err != nil {
			return err
		}
		if kind != "felix" || len(rest) != 1 || rest[0].GameID != g2 || len(rest[0].Seats) != 2 || rest[0].Seats[0].Address != bob {
			t.Errorf("after unrating game 1: %s %+v", kind, rest)
		}
		if _, _, err := tx.UnrateGame(ctx, g1); !errors.Is(err, ErrNotFound) {
			t.Errorf("unrating twice: %v", err)
		}
		return tx.ResetRatings(ctx, "felix", []PlayerRating{{Kind: "felix", Mailbox: bob, Mu: 24, Sigma: 8, Games: 1}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Standings(ctx, ann); len(st) != 0 {
		t.Errorf("ann stands with %+v after her only game was unrated", st)
	}
	if r, _ := s.Ratings(ctx, "felix", []string{bob, cy}); len(r) != 1 || r[bob].Mu != 24 {
		t.Errorf("ratings after the reset: %+v", r)
	}
}
