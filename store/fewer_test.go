package store

import (
	"context"
	"fmt"
	"testing"
)

// TestWritesInFewStatements pins how many statements the writes issue 40
// made cheaper run, and checks that they write what one statement a row
// wrote: events in their order, with the last one's id returned.
func TestWritesInFewStatements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.AppendMove(ctx, id, Move{Seat: 0, Command: "pass", Source: SourceMail, At: t0})
		return err
	})
	events := func(n int) []Event {
		var evs []Event
		for i := range n {
			evs = append(evs, Event{To: i%3 - 1, Kind: "k", Text: fmt.Sprintf("event %d", i), Say: `["x"]`})
		}
		return evs
	}
	for _, c := range []struct {
		name string
		run  func(tx *Tx) error
		want int64 // statements
		n    int   // events written
	}{
		{"a snapshot", func(tx *Tx) error { return tx.SaveSnapshot(ctx, id, 1, []byte(`{}`)) }, 1, 0},
		{"one event", func(tx *Tx) error { return tx.AppendEvents(ctx, id, 1, events(1)) }, 1, 1},
		{"a move's events", func(tx *Tx) error { return tx.AppendEvents(ctx, id, 1, events(maxEventRows)) }, 1, maxEventRows},
		{"many events", func(tx *Tx) error { return tx.AppendEvents(ctx, id, 1, events(2*maxEventRows+3)) }, 3, 2*maxEventRows + 3},
	} {
		before, err := s.Events(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		mustTx(t, s, func(tx *Tx) error {
			start := s.Counts().Statements
			err = c.run(tx)
			n = s.Counts().Statements - start
			return err
		})
		if n != c.want {
			t.Errorf("%s: %d statements, want %d", c.name, n, c.want)
		}
		after, err := s.Events(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		added := after[len(before):]
		if len(added) != c.n {
			t.Fatalf("%s: %d events written, want %d", c.name, len(added), c.n)
		}
		for i, e := range added {
			want := events(c.n)[i]
			if e.Text != want.Text || e.To != want.To || e.Say != want.Say || e.Seq != 1 {
				t.Errorf("%s: event %d reads %+v, want %+v at seq 1", c.name, i, e, want)
			}
		}
	}
}
