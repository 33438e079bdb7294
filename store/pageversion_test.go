package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLogStampMovesWithTheLog: a game's log stamp changes with each move
// and each event appended, and with a new set-up; reading it changes
// nothing; a game that does not exist has none.
func TestLogStampMovesWithTheLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	stamp := func() LogStamp {
		t.Helper()
		st, err := s.LogStamp(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	seen := []LogStamp{stamp()}
	if seen[0].LastSeq != 0 || seen[0].LastEventID != 0 || len(seen[0].Setup) == 0 {
		t.Fatalf("a new game's stamp: %+v", seen[0])
	}
	for _, c := range []struct {
		name  string
		write func(*Tx) error
	}{
		{"a move", func(tx *Tx) error {
			_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: SourceMail, At: time.Unix(1, 0)})
			return err
		}},
		{"an event", func(tx *Tx) error {
			err := tx.AppendEvents(ctx, g, 1, []Event{{To: Public, Kind: "note", Text: "ann passed"}})
			return err
		}},
		{"a set-up", func(tx *Tx) error { return tx.SetGameSetup(ctx, g, []byte(`{"players":["ann","robert"]}`)) }},
	} {
		mustTx(t, s, c.write)
		now := stamp()
		for _, old := range seen {
			if now.LastSeq == old.LastSeq && now.LastEventID == old.LastEventID && string(now.Setup) == string(old.Setup) {
				t.Errorf("after %s the stamp is one seen before: %+v", c.name, now)
			}
		}
		seen = append(seen, now)
	}
	if again := stamp(); again.LastSeq != seen[len(seen)-1].LastSeq || again.LastEventID != seen[len(seen)-1].LastEventID {
		t.Errorf("reading the stamp moved it: %+v, then %+v", seen[len(seen)-1], again)
	}
	if _, err := s.LogStamp(ctx, g+100); !errors.Is(err, ErrNotFound) {
		t.Errorf("no such game: %v", err)
	}
}
