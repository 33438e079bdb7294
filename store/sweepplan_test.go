package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// sweepQueries are the statements the deadline sweep runs on every pass
// to find its work (daemon.Service.SweepDeadlines), each with what its
// plan must search: an index, and the range of it read. Everything else
// the sweep reads it reads by key, for the rows these return. A new
// statement of the sweep is one more line here.
var sweepQueries = []struct {
	name, query string
	search      string // the plan's step that finds the due rows
}{
	{"vacations that ran out (Returned)", returnedQuery, "SEARCH players USING INDEX players_away_until (away_until>? AND away_until<?)"},
	{"deadlines (DueDeadlines)", dueDeadlinesQuery, "SEARCH s USING INDEX seats_deadline (deadline>? AND deadline<?)"},
	{"reminder steps (DueReminders)", dueRemindersQuery, "SEARCH s USING INDEX seats_remind_at (remind_at>? AND remind_at<?)"},
	{"digests (DueDigests)", dueDigestsQuery, "SEARCH players USING INDEX players_digest_due (digest_due>? AND digest_due<?)"},
	{"undos whose time is up (ExpiredUndos)", expiredUndosQuery, "SEARCH u USING INDEX undos_expiry (expires_at<?)"},
}

// sweepGames is how many games fill the store the sweep's plans are
// checked on: enough that reading them all would show.
const sweepGames = 100_000

// The sweep runs every minute whatever the number of games, so each of
// its statements must find the due rows through an index, reading from
// the index's start up to now, never every seat or player. The plans are
// those of a store filled with 100,000 games, as production has them: pbem
// never runs ANALYZE, so SQLite plans without statistics, here as there.
func TestSweepPlans(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	skipUnderRace(t)
	ctx := context.Background()
	s, _ := newStore(t)
	now := t0
	if err := storetest.Fill(ctx, s.w, sweepGames, now.Add(-24*time.Hour), now); err != nil {
		t.Fatal(err)
	}
	due := addDueWork(t, s, now)

	var stat int
	if err := s.r.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'sqlite_stat%'`).Scan(&stat); err != nil {
		t.Fatal(err)
	}
	if stat != 0 {
		t.Fatalf("the store has %d statistics tables; production runs no ANALYZE, so these plans would not be its plans", stat)
	}

	for _, q := range sweepQueries {
		plan := explain(t, s, q.query, unix(now))
		p := strings.Join(plan, "; ")
		t.Logf("%s: %s", q.name, p)
		if !slices.Contains(plan, q.search) {
			t.Errorf("%s: plan is %q; want %q", q.name, p, q.search)
		}
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") {
				t.Errorf("%s: plan %q reads a whole table (%s)", q.name, p, step)
			}
		}
	}

	// And the methods return the due rows, only them.
	deadlines, err := s.DueDeadlines(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(deadlines, due.deadlines) {
		t.Errorf("DueDeadlines = %v, want %v", deadlines, due.deadlines)
	}
	reminders, err := s.DueReminders(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reminders, due.reminders) {
		t.Errorf("DueReminders = %v, want %v", reminders, due.reminders)
	}
	back, err := s.Returned(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, due.returned) {
		t.Errorf("Returned = %v, want %v", back, due.returned)
	}
	digests, err := s.DueDigests(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(digests, due.digests) {
		t.Errorf("DueDigests = %v, want %v", digests, due.digests)
	}
}

// dueWork is what the sweep at now must find in the filled store.
type dueWork struct {
	deadlines []Deadline
	reminders []Reminder
	returned  []string
	digests   []DueDigest
}

// addDueWork adds, through the store's own methods, a few things due at
// now among the filler, and beside them a few that look due but are not:
// the deadlines of a paused and of a broken game.
func addDueWork(t *testing.T, s *Store, now time.Time) dueWork {
	t.Helper()
	ctx := context.Background()
	var w dueWork
	game := func(status Status, broken bool) int64 {
		id := newGame(t, s, "ann@example.org", "bob@example.org", "cy@example.org")
		mustTx(t, s, func(tx *Tx) error {
			if err := tx.SetGameStatus(ctx, id, status); err != nil {
				return err
			}
			if broken {
				_, err := tx.SetGameAside(ctx, id, "test: set aside", now)
				return err
			}
			return nil
		})
		return id
	}
	deadline := func(id int64, seat int, at time.Time) {
		mustTx(t, s, func(tx *Tx) error { return tx.NewDecision(ctx, id, seat, at.Add(-72*time.Hour), at) })
	}
	reminder := func(id int64, seat int, at time.Time, lead time.Duration) {
		mustTx(t, s, func(tx *Tx) error { return tx.SetReminder(ctx, id, seat, at, lead) })
	}

	// Three passed deadlines, one of them exactly now.
	for i, ago := range []time.Duration{3 * time.Hour, time.Minute, 0} {
		id := game(StatusActive, false)
		deadline(id, i, now.Add(-ago))
		w.deadlines = append(w.deadlines, Deadline{GameID: id, Seat: i, At: now.Add(-ago)})
	}
	// Two reminder steps due, of deadlines still to come.
	for i, ago := range []time.Duration{time.Hour, 0} {
		id := game(StatusActive, false)
		at := now.Add(-ago)
		deadline(id, i, at.Add(12*time.Hour))
		reminder(id, i, at, 12*time.Hour)
		w.reminders = append(w.reminders, Reminder{GameID: id, Seat: i, Deadline: at.Add(12 * time.Hour), At: at, Lead: 12 * time.Hour})
	}
	// Passed deadlines and steps of a paused and of a broken game: stored,
	// not due.
	for _, id := range []int64{game(StatusPaused, false), game(StatusActive, true)} {
		deadline(id, 0, now.Add(-time.Hour))
		reminder(id, 0, now.Add(-13*time.Hour), 12*time.Hour)
	}
	// Two vacations that ran out, one that has not.
	for _, v := range []struct {
		addr  string
		until time.Time
	}{{"back@example.org", now.Add(-time.Hour)}, {"just@example.org", now}, {"away@example.org", now.Add(time.Minute)}} {
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.UpsertPlayer(ctx, v.addr, ""); err != nil {
				return err
			}
			_, err := tx.StartVacation(ctx, v.addr, now.Add(-48*time.Hour), v.until)
			return err
		})
		if !v.until.After(now) {
			w.returned = append(w.returned, v.addr)
		}
	}
	// Two digests due, one not yet.
	for _, d := range []DueDigest{{"early@example.org", now.Add(-2 * time.Hour)}, {"prompt@example.org", now}, {"later@example.org", now.Add(time.Second)}} {
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.UpsertPlayer(ctx, d.Address, ""); err != nil {
				return err
			}
			if err := tx.SetPlayerNotify(ctx, d.Address, NotifyDigest); err != nil {
				return err
			}
			return tx.SetPlayerDigest(ctx, d.Address, 8, d.Due)
		})
		if !d.Due.After(now) {
			w.digests = append(w.digests, d)
		}
	}
	return w
}

// explain returns the steps of SQLite's plan for query, as EXPLAIN QUERY
// PLAN words them, on a connection of the read pool the store's reads use.
func explain(t *testing.T, s *Store, query string, args ...any) []string {
	t.Helper()
	rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// skipUnderRace skips a test that fills a store with 100,000 games when
// the race detector is on: single-goroutine SQL work that takes seconds
// takes minutes under it and finds no races. scripts/test runs these
// tests without -race.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("100,000 games: scripts/test runs it without -race")
	}
}
