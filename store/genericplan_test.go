package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem/pbem/store/storetest"
)

// TestHotReadsUseGenericPlans: on PostgreSQL the reads of a command
// whose custom plans looked cheaper than their generic plan were planned
// again on every run (issue 40). Run more than the five times after
// which PostgreSQL weighs its generic plan, on one connection, each
// must have used it.
func TestHotReadsUseGenericPlans(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("PostgreSQL's plan cache")
	}
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	// Games with a history, and mailboxes, counted by ANALYZE: a custom
	// plan, made for a since near the game's last event and for a few
	// mailboxes, looks cheaper than the generic plan, which expects a
	// third of the game's events and ten mailboxes.
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	other := newGame(t, s, "cat@example.org", "dan@example.org")
	var last int64
	mustTx(t, s, func(tx *Tx) error {
		for range 250 {
			for _, game := range []int64{g, other} {
				var evs []Event
				for i := range 8 {
					evs = append(evs, Event{To: -1, Kind: "note", Text: strings.Repeat("x", i)})
				}
				if err := tx.AppendEvents(ctx, game, 0, evs); err != nil {
					return err
				}
			}
		}
		if _, err := tx.exec(ctx, `INSERT INTO mailboxes (mailbox, answered_at)
			SELECT 'player' || i || '@example.org', CASE WHEN i % 2 = 0 THEN 1 END FROM generate_series(1, 2000) AS i`); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `ANALYZE events`); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `ANALYZE mailboxes`); err != nil {
			return err
		}
		evs, err := tx.Events(ctx, g, 0)
		if err != nil || len(evs) == 0 {
			return fmt.Errorf("events of game %d: %d, %w", g, len(evs), err)
		}
		last = evs[len(evs)-1].ID
		return nil
	})
	mustTx(t, s, func(tx *Tx) error {
		for i := range 8 {
			// Since ids near the last, and as many mailboxes as a game
			// has seats: what a custom plan is made for.
			tx.memo.answered = nil
			boxes := []string{"player1@example.org", "player2@example.org", "player3@example.org"}[:1+i%3]
			if _, err := tx.EventsKeepingAnswered(ctx, g, last-int64(i%4), boxes); err != nil {
				return err
			}
		}
		for range 8 {
			ids, err := tx.q.QueryContext(ctx, rebind(keptEventsSQL), g, g, g)
			if err != nil {
				return err
			}
			ids.Close()
		}
		rows, err := tx.q.QueryContext(ctx, `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`)
		if err != nil {
			return err
		}
		defer rows.Close()
		seen := map[string]bool{}
		for rows.Next() {
			var q string
			var generic, custom int64
			if err := rows.Scan(&q, &generic, &custom); err != nil {
				return err
			}
			for name, text := range map[string]string{"events": "FROM events", "answered": "FROM unnest(", "event ids": "nextval("} {
				if !strings.Contains(q, text) {
					continue
				}
				seen[name] = true
				if generic == 0 {
					t.Errorf("the %s read was planned for its values on each of %d runs, never by its generic plan:\n%s", name, custom, q)
				}
			}
		}
		if !seen["events"] || !seen["answered"] || !seen["event ids"] {
			t.Errorf("the reads are not prepared on the transaction's connection: %v", seen)
		}
		return rows.Err()
	})
}
