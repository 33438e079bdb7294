package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLinks: a seat's page link is made once, is its own secret (not the
// mail token), leads to its seat, and a new one ends the old; the public
// link exists only between NewLink and DropLink.
func TestLinks(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	var g int64
	mailTok := NewToken()
	err := s.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.UpsertPlayer(ctx, "ann@x.test", "Ann"); err != nil {
			return err
		}
		var err error
		g, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@x.test", CreatedAt: time.Unix(0, 0), TurnTime: time.Hour})
		if err != nil {
			return err
		}
		return tx.AddSeat(ctx, g, 0, "ann@x.test", "ann", mailTok)
	})
	if err != nil {
		t.Fatal(err)
	}
	var first, again, rotated string
	err = s.Tx(ctx, func(tx *Tx) error {
		var err error
		if first, err = tx.EnsureLink(ctx, g, 0); err != nil {
			return err
		}
		if again, err = tx.EnsureLink(ctx, g, 0); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if first != again || len(first) != 26 || first == mailTok {
		t.Fatalf("link %q then %q (mail token %q): want one 26-character token of its own", first, again, mailTok)
	}
	if l, err := s.LinkByToken(ctx, first); err != nil || l != (Link{GameID: g, Seat: 0}) {
		t.Fatalf("LinkByToken = %+v, %v", l, err)
	}
	if _, err := s.LinkByToken(ctx, mailTok); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the mail token opens a page: %v", err)
	}
	err = s.Tx(ctx, func(tx *Tx) error {
		var err error
		rotated, err = tx.NewLink(ctx, g, 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.LinkByToken(ctx, first); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the old link still leads somewhere: %v", err)
	}
	if l, err := s.LinkByToken(ctx, rotated); err != nil || l.Seat != 0 || rotated == first {
		t.Fatalf("new link %q: %+v, %v", rotated, l, err)
	}
	if _, err := s.LinkToken(ctx, g, PublicLink); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a game is open to spectators by default: %v", err)
	}
	var pub string
	if err := s.Tx(ctx, func(tx *Tx) error { var err error; pub, err = tx.NewLink(ctx, g, PublicLink); return err }); err != nil {
		t.Fatal(err)
	}
	if l, err := s.LinkByToken(ctx, pub); err != nil || l.Seat != PublicLink {
		t.Fatalf("public link: %+v, %v", l, err)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.DropLink(ctx, g, PublicLink) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LinkByToken(ctx, pub); !errors.Is(err, ErrNotFound) {
		t.Fatalf("closed public link still leads somewhere: %v", err)
	}
}
