package sweeps

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
)

// now is the clock of the sweeps' tests.
var now = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// recordingActs are Acts that write down each unit done, by its key, and
// do what a test gives for a kind (nil: nothing, and it counts).
type recordingActs struct {
	mu      sync.Mutex
	done    []string // the keys of the units whose transaction committed
	tried   []string // the keys of the units tried
	move    func(tx *store.Tx, d store.Deadline) error
	digest  func(tx *store.Tx, d store.DueDigest) error
	aside   []string // "game ID: why" of each game set aside
	skipped []string // the players whose digest was skipped
}

func (a *recordingActs) unit(key string, do func(tx *store.Tx) error) Unit {
	return unit{
		do: func(tx *store.Tx) (bool, error) {
			a.mu.Lock()
			a.tried = append(a.tried, key)
			a.mu.Unlock()
			if do == nil {
				return true, nil
			}
			return true, do(tx)
		},
		committed: func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.done = append(a.done, key)
		},
	}
}

func (a *recordingActs) Return(key, _ string) Unit { return a.unit(key, nil) }

func (a *recordingActs) LapseUndo(key string, u store.UndoProposal) Unit {
	return a.unit(key, func(tx *store.Tx) error {
		_, err := tx.EndUndo(context.Background(), u.GameID)
		return err
	})
}

func (a *recordingActs) DefaultMove(key string, d store.Deadline) Unit {
	if a.move == nil {
		return a.unit(key, nil)
	}
	return a.unit(key, func(tx *store.Tx) error { return a.move(tx, d) })
}

func (a *recordingActs) Remind(key string, _ store.Reminder) Unit { return a.unit(key, nil) }

func (a *recordingActs) Digest(key string, d store.DueDigest) Unit {
	if a.digest == nil {
		return a.unit(key, nil)
	}
	return a.unit(key, func(tx *store.Tx) error { return a.digest(tx, d) })
}

func (a *recordingActs) SetGameAside(_ context.Context, gameID int64, cause error, why string) error {
	a.aside = append(a.aside, fmt.Sprintf("%d: %s: %v", gameID, why, cause))
	return nil
}

func (a *recordingActs) SkipDigest(_ context.Context, d store.DueDigest) error {
	a.skipped = append(a.skipped, d.Address)
	return nil
}

// countingObserver counts what it is told.
type countingObserver struct {
	sweeps, due int
	aside       []Kind
}

func (o *countingObserver) Sweep(_ time.Duration, due int) { o.sweeps++; o.due += due }
func (o *countingObserver) SetAside(what Kind)             { o.aside = append(o.aside, what) }

// dueGame is a game of three seats in st, with seat 0's deadline passed
// a minute ago, seat 1's reminder step due, and an undo whose time ran
// out; a player back from vacation and a digest due are beside it.
func dueGame(t *testing.T, st *store.Store) int64 {
	t.Helper()
	ctx := context.Background()
	var id int64
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.Tx(ctx, func(tx *store.Tx) error {
		var err error
		id, err = tx.CreateGame(ctx, store.NewGame{Kind: "felix", Setup: []byte(`{"players":[]}`), Creator: "ann@example.org", CreatedAt: now.Add(-96 * time.Hour)})
		if err != nil {
			return err
		}
		for i, a := range []string{"ann@example.org", "bob@example.org", "cy@example.org"} {
			if err := tx.AddSeat(ctx, id, i, a, "p"+a[:1], store.NewToken()); err != nil {
				return err
			}
		}
		return tx.SetGameStatus(ctx, id, store.StatusActive)
	}))
	must(st.GameTx(ctx, id, func(tx *store.Tx) error {
		if err := tx.NewDecision(ctx, id, 0, now.Add(-73*time.Hour), now.Add(-time.Minute)); err != nil {
			return err
		}
		if err := tx.NewDecision(ctx, id, 1, now.Add(-60*time.Hour), now.Add(12*time.Hour)); err != nil {
			return err
		}
		if err := tx.SetReminder(ctx, id, 1, now.Add(-time.Second), 12*time.Hour); err != nil {
			return err
		}
		return tx.ProposeUndo(ctx, store.UndoProposal{GameID: id, Seat: 2, Seq: 1, ProposedAt: now.Add(-25 * time.Hour), ExpiresAt: now.Add(-time.Hour)})
	}))
	must(st.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.UpsertPlayer(ctx, "back@example.org", ""); err != nil {
			return err
		}
		if _, err := tx.StartVacation(ctx, "back@example.org", now.Add(-48*time.Hour), now.Add(-time.Hour)); err != nil {
			return err
		}
		if _, err := tx.UpsertPlayer(ctx, "digest@example.org", ""); err != nil {
			return err
		}
		if err := tx.SetPlayerNotify(ctx, "digest@example.org", store.NotifyDigest); err != nil {
			return err
		}
		return tx.SetPlayerDigest(ctx, "digest@example.org", 8, now.Add(-2*time.Hour))
	}))
	return id
}

// TestSweepOrder: a sweep does the returns from vacation first, then the
// lapsed undos, then the default moves — again while moves fall due at
// once —, then the reminders, then the digests, each under the key its
// mails' Message-IDs derive from, and reports the deadlines and
// reminders it found.
func TestSweepOrder(t *testing.T) {
	t.Parallel()
	acts := &recordingActs{}
	obs := &countingObserver{}
	sw, st := newSweeper(t, acts, now, obs)
	id := dueGame(t, st)
	acts.move = func(tx *store.Tx, d store.Deadline) error {
		ctx := context.Background()
		if err := tx.ClearDeadline(ctx, d.GameID, d.Seat); err != nil {
			return err
		}
		if d.Seat == 0 {
			// Seat 2 (a bot's, a resigned player's) falls due at once.
			return tx.NewDecision(ctx, d.GameID, 2, now, now)
		}
		return nil
	}
	made, err := sw.SweepDeadlines(context.Background())
	if err != nil || made != 2 {
		t.Fatalf("the sweep made %d moves, %v; want 2", made, err)
	}
	want := []string{
		fmt.Sprintf("back:back@example.org:%d", now.Unix()),
		fmt.Sprintf("undo-lapse:%d:%d", id, now.Add(-25*time.Hour).Unix()),
		fmt.Sprintf("deadline:%d:0:%d", id, now.Add(-time.Minute).Unix()),
		fmt.Sprintf("deadline:%d:2:%d", id, now.Unix()),
		ReminderKey(id, 1, now.Add(12*time.Hour), 12*time.Hour),
		fmt.Sprintf("digest:digest@example.org:%d", now.Add(-2*time.Hour).Unix()),
	}
	if !slices.Equal(acts.done, want) {
		t.Errorf("the sweep did\n%s\nwant\n%s", strings.Join(acts.done, "\n"), strings.Join(want, "\n"))
	}
	// The deadlines it found (2) and the reminder it sent (1).
	if obs.sweeps != 1 || obs.due != 3 {
		t.Errorf("observer told of %d sweeps, %d due; want 1, 3", obs.sweeps, obs.due)
	}
}

// TestSweepSetsAside: a deadline whose work keeps failing is tried once
// a sweep, and its game set aside at the tries.Max-th sweep, with words
// that name the work; a digest that keeps failing is skipped for the
// day. The other items go on meanwhile.
func TestSweepSetsAside(t *testing.T) {
	t.Parallel()
	acts := &recordingActs{}
	obs := &countingObserver{}
	sw, st := newSweeper(t, acts, now, obs)
	id := dueGame(t, st)
	broken := errors.New("broken")
	// Seat 2's deadline passed too, and its default move succeeds: the
	// sweep looks again for moves due, and skips seat 0's, which failed.
	err := st.GameTx(context.Background(), id, func(tx *store.Tx) error {
		return tx.NewDecision(context.Background(), id, 2, now.Add(-72*time.Hour), now.Add(-time.Second))
	})
	if err != nil {
		t.Fatal(err)
	}
	acts.move = func(tx *store.Tx, d store.Deadline) error {
		if d.Seat == 2 {
			return tx.ClearDeadline(context.Background(), d.GameID, d.Seat)
		}
		return broken
	}
	acts.digest = func(*store.Tx, store.DueDigest) error { return broken }
	deadlineKey := fmt.Sprintf("deadline:%d:0:%d", id, now.Add(-time.Minute).Unix())
	for i := range tries.Max {
		acts.tried = nil
		made, err := sw.SweepDeadlines(context.Background())
		want := 0
		if i == 0 {
			want = 1 // seat 2's
		}
		if made != want || !errors.Is(err, broken) {
			t.Fatalf("sweep %d: made %d, %v; want %d, the failure", i+1, made, err, want)
		}
		if n := strings.Count(strings.Join(acts.tried, " "), deadlineKey); n != 1 {
			t.Fatalf("sweep %d tried the failing deadline %d times, want once", i+1, n)
		}
		if i < tries.Max-1 && (len(acts.aside) > 0 || len(acts.skipped) > 0) {
			t.Fatalf("set aside after %d failures: %v, %v", i+1, acts.aside, acts.skipped)
		}
	}
	wantAside := fmt.Sprintf("%d: the deadline of seat 0 (%s) could not be handled: broken", id, now.Add(-time.Minute).Format(time.RFC3339))
	if !slices.Equal(acts.aside, []string{wantAside}) {
		t.Errorf("games set aside %q, want %q", acts.aside, wantAside)
	}
	if !slices.Equal(acts.skipped, []string{"digest@example.org"}) {
		t.Errorf("digests skipped %q, want digest@example.org's", acts.skipped)
	}
	if !slices.Equal(obs.aside, []Kind{KindDeadline, KindDigest}) {
		t.Errorf("observer told of %v set aside, want a deadline and a digest", obs.aside)
	}
	if !slices.Contains(acts.done, ReminderKey(id, 1, now.Add(12*time.Hour), 12*time.Hour)) {
		t.Errorf("the reminder was not sent beside the failing deadline: %v", acts.done)
	}
}
