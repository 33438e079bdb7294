package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
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

// TestRatingsOfMany: Ratings and StandingsEach read several mailboxes
// in a statement of up to maxRatingsRead, more in several, each given
// once whatever its spelling; StandingsEach of each mailbox is its
// Standings. A game's end reads them in a statement each, and its
// ratings' writes go with the standings' read (one round trip on
// PostgreSQL, where each was one of its own).
func TestRatingsOfMany(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	var reads []string
	s, _ := newStore(t, WithStatementHook(func(q string) {
		if strings.Contains(q, "FROM ratings WHERE") || strings.Contains(q, "WITH pairs AS") {
			mu.Lock()
			reads = append(reads, q)
			mu.Unlock()
		}
	}))
	counted := func() int { mu.Lock(); defer mu.Unlock(); n := len(reads); reads = nil; return n }
	var boxes []string
	for i := range 11 {
		boxes = append(boxes, fmt.Sprintf("p%d@x.test", i))
	}
	// Games of four: 0-3, 4-7, 8-10 with 0; every player rated once.
	seats := [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 0}}
	mustTx(t, s, func(tx *Tx) error {
		for gi, g := range seats {
			id, err := tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: boxes[g[0]], CreatedAt: time.Unix(0, 0), TurnTime: time.Hour})
			if err != nil {
				return err
			}
			rg := RatedGame{GameID: id, Kind: "felix", At: time.Unix(int64(100*(gi+1)), 0)}
			var rated []PlayerRating
			for rank, p := range g {
				rg.Seats = append(rg.Seats, RatedSeat{Address: boxes[p], Mailbox: boxes[p], Name: fmt.Sprintf("p%d", p), Rank: rank + 1})
				rated = append(rated, PlayerRating{Kind: "felix", Mailbox: boxes[p], Mu: float64(20 + p), Sigma: 8, Games: 1})
			}
			if err := tx.RateGame(ctx, rg, rated); err != nil {
				return err
			}
		}
		return nil
	})
	counted()
	asked := append([]string{"P3@X.TEST", "nobody@x.test"}, boxes...) // p3 twice, in two spellings
	r, err := s.Ratings(ctx, "felix", asked)
	if err != nil {
		t.Fatal(err)
	}
	if n := counted(); n != 2 {
		t.Errorf("Ratings of 12 mailboxes ran %d statements, want 2 (8 and 4)", n)
	}
	if len(r) != len(boxes) {
		t.Errorf("Ratings found %d of the %d rated mailboxes: %+v", len(r), len(boxes), r)
	}
	for i, b := range boxes {
		if r[b].Mu != float64(20+i) || r[b].Kind != "felix" || r[b].Mailbox != b {
			t.Errorf("rating of %s: %+v", b, r[b])
		}
	}
	each, err := s.StandingsEach(ctx, asked)
	if err != nil {
		t.Fatal(err)
	}
	if n := counted(); n != 2 {
		t.Errorf("StandingsEach of 12 mailboxes ran %d statements, want 2", n)
	}
	for _, b := range append(boxes, "nobody@x.test") {
		one, err := s.Standings(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(each[b], one) {
			t.Errorf("standings of %s together %+v, alone %+v", b, each[b], one)
		}
	}
	if len(each["p0@x.test"]) != 7 || len(each["p5@x.test"]) != 4 || len(each["nobody@x.test"]) != 0 {
		t.Errorf("standings: p0 with %d, p5 with %d, nobody with %d; want 7, 4, 0", len(each["p0@x.test"]), len(each["p5@x.test"]), len(each["nobody@x.test"]))
	}

	// A game's end: read, rate, then the standings, which see the writes.
	counted()
	before := s.Counts().RoundTrips
	mustTx(t, s, func(tx *Tx) error {
		id, err := tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: boxes[1], CreatedAt: time.Unix(0, 0), TurnTime: time.Hour})
		if err != nil {
			return err
		}
		before = s.Counts().RoundTrips
		g := boxes[1:5]
		old, err := tx.Ratings(ctx, "felix", g)
		if err != nil {
			return err
		}
		rg := RatedGame{GameID: id, Kind: "felix", At: time.Unix(900, 0)}
		var rated []PlayerRating
		for rank, b := range g {
			rg.Seats = append(rg.Seats, RatedSeat{Address: b, Mailbox: b, Name: b, Rank: rank + 1})
			rated = append(rated, PlayerRating{Kind: "felix", Mailbox: b, Mu: old[b].Mu + 1, Sigma: 7, Games: old[b].Games + 1})
		}
		if err := tx.RateGame(ctx, rg, rated); err != nil {
			return err
		}
		after, err := tx.StandingsEach(ctx, g)
		if err != nil {
			return err
		}
		// p4 now stands with p1-p3 too, and p5-p7, with his new rating.
		var p4 []PlayerRating
		for _, p := range after["p4@x.test"] {
			if p.Mailbox == "p4@x.test" {
				p4 = append(p4, p)
			}
		}
		if len(after["p4@x.test"]) != 7 || len(p4) != 1 || p4[0].Games != 2 || p4[0].Mu != 25 {
			t.Errorf("standings after the game's end do not see its ratings: %+v", after["p4@x.test"])
		}
		// Two, and one more for each statement the transaction's
		// connection meets for the first time, which pgx prepares; a
		// round trip a read and a write was 17.
		if n := s.Counts().RoundTrips - before; s.Engine() == PostgreSQL && n > 4 {
			t.Errorf("a game's end read, rated and read its standings in %d round trips, want 2 to 4", n)
		}
		return nil
	})
	if n := counted(); n != 2 {
		t.Errorf("a game's end ran %d reads of ratings and standings, want 2", n)
	}
}
