package daemon

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// TestSweepSkipsBusyGame: on PostgreSQL a sweep does not wait for a game
// another transaction holds (another node's mail, say): it leaves that
// game's deadlines for the next sweep, makes the rest, and the next
// sweep makes the ones left.
func TestSweepSkipsBusyGame(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("on SQLite the one writer is waited for: set " + storetest.PostgresEnv)
	}
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, busy := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	_, free := w.startGame("felix", "dave@x.test", "erin@y.test", "fred@z.test")
	w.clock = w.clock.Add(73 * time.Hour)

	inside, done, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		w.st.GameTx(ctx, busy, func(tx *store.Tx) error {
			close(inside)
			<-done
			return nil
		})
	}()
	<-inside
	n, err := w.svc.SweepDeadlines(ctx)
	close(done)
	<-ended
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("%d default moves beside a held game, want 3 (the free game's)", n)
	}
	if moves := movesOf(t, w, busy); moves != 0 {
		t.Errorf("the held game has %d moves; the sweep must leave it alone", moves)
	}
	if moves := movesOf(t, w, free); moves != 3 {
		t.Errorf("the free game has %d moves, want 3", moves)
	}
	if n, err := w.svc.SweepDeadlines(ctx); err != nil || n != 3 {
		t.Errorf("the next sweep: %d default moves, err %v; want the held game's 3", n, err)
	}
}

func movesOf(t *testing.T, w *world, game int64) int {
	t.Helper()
	m, err := w.st.Moves(context.Background(), game, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// TestSeatMailBesideOtherGame: on PostgreSQL a mail to a seat's address
// is handled in its game's transaction, beside another game's: a
// transaction holding one game does not hold back another game's mail,
// and the mail's effects (its move, its answers) are all there.
func TestSeatMailBesideOtherGame(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("on SQLite the one writer orders everything: set " + storetest.PostgresEnv)
	}
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, held := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	reply, other := w.startGame("felix", "dave@x.test", "erin@y.test", "fred@z.test")

	cmd := w.legal(other, 0) // read before: the test's reading takes the global lock
	inside, done, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	release := sync.OnceFunc(func() { close(done) })
	defer release()
	go func() {
		defer close(ended)
		w.st.GameTx(ctx, held, func(tx *store.Tx) error {
			close(inside)
			<-done
			return nil
		})
	}()
	<-inside
	// Play one card in the other game: the mail commits while the held
	// game's transaction is open (under one global lock it would wait).
	w.send("dave@x.test", reply["dave@x.test"], cmd)
	release()
	<-ended
	if moves := movesOf(t, w, other); moves != 1 {
		t.Errorf("the other game has %d moves, want 1", moves)
	}
	if !strings.Contains(w.logs.String(), "outcome=applied") {
		t.Errorf("the mail was not applied:\n%s", w.logs.String())
	}
}
