package daemon

import (
	"context"
	"fmt"
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
	n, err := w.svc.Sweeper().SweepDeadlines(ctx)
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
	if n, err := w.svc.Sweeper().SweepDeadlines(ctx); err != nil || n != 3 {
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

// TestMailInAnotherGamesTransaction: a mail that turns out, under the
// lock, to be about another game than the one its transaction holds (its
// seat's address moved meanwhile, say) is not handled there: route says
// so (store.ErrWiderLock), and GameTx runs it again under the global
// lock, where it is applied once. On either engine: the scope is checked
// on SQLite too.
func TestMailInAnotherGamesTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, wrong := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	reply, game := w.startGame("felix", "dave@x.test", "erin@y.test", "fred@z.test")
	for i, tc := range []struct {
		name, body string
		moves      int
	}{
		// route's check catches both before they write; without it the
		// store would refuse their first write of the seat's game.
		{"a move", w.legal(game, 0), 1},
		{"a question", "help", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := "From: dave@x.test\r\nTo: " + reply["dave@x.test"] + "\r\nSubject: Re: pbem\r\n" +
				fmt.Sprintf("Message-ID: <wrong-game-%d@x.test>\r\n", i) +
				"Date: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n" + tc.body + "\r\n"
			in := w.svc.read(mailMessage(uint32(1000+i), raw))
			runs, scoped := 0, 0
			err := w.st.GameTx(ctx, wrong, func(tx *store.Tx) error {
				runs++
				if tx.LockedGame() != 0 {
					scoped++
				}
				return in.t.in(ctx, tx).apply(in)
			})
			if err != nil {
				t.Fatal(err)
			}
			if runs != 2 || scoped != 1 {
				t.Errorf("handled %d times, %d of them in the wrong game's transaction; want twice, once (then under the global lock)", runs, scoped)
			}
			if n := movesOf(t, w, game); n != tc.moves {
				t.Errorf("the mail's game has %d moves, want %d", n, tc.moves)
			}
			if n := movesOf(t, w, wrong); n != 0 {
				t.Errorf("the locked game has %d moves, want 0", n)
			}
		})
	}
}

// TestBatchGame: on PostgreSQL a batch runs in its game's transaction
// when all its mails come from one seat's player to its address, and
// under the global lock otherwise; the seat's token is looked up once,
// then kept (seatCache).
func TestBatchGame(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("on SQLite every batch runs under the one writer: set " + storetest.PostgresEnv)
	}
	t.Parallel()
	w := newWorld(t)
	reply, game := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	mail := func(uid uint32, from string) *readInbound {
		raw := "From: " + from + "\r\nTo: " + reply[from] + "\r\nSubject: Re: pbem\r\n" +
			fmt.Sprintf("Message-ID: <batch-%d@x.test>\r\n", uid) + "Date: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\nhelp\r\n"
		return w.svc.read(mailMessage(uid, raw))
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		read []*readInbound
		want int64
	}{
		{"one mail", []*readInbound{mail(1, "alice@x.test")}, game},
		{"one player's mails", []*readInbound{mail(2, "alice@x.test"), mail(3, "alice@x.test")}, game},
		{"two players' mails", []*readInbound{mail(4, "alice@x.test"), mail(5, "bob@y.test")}, 0},
		{"another player's mail", []*readInbound{mail(6, "bob@y.test")}, game},
	} {
		if got := w.svc.batchGame(ctx, tc.read); got != tc.want {
			t.Errorf("%s: batchGame %d, want %d", tc.name, got, tc.want)
		}
	}
	if _, ok := w.svc.seats.get(strings.TrimSuffix(strings.TrimPrefix(reply["alice@x.test"], "pbem+"), "@example.test")); !ok {
		t.Error("alice's seat token is not kept after its look-up")
	}
}

// TestSeatCacheBounded: the token cache starts afresh when full, so that
// a flood of tokens cannot grow it without bound.
func TestSeatCacheBounded(t *testing.T) {
	t.Parallel()
	var c seatCache
	for i := range seatCacheSize + 10 {
		c.put(fmt.Sprint("tok", i), seatOf{game: int64(i)})
	}
	if len(c.m) > seatCacheSize {
		t.Errorf("%d tokens kept, at most %d", len(c.m), seatCacheSize)
	}
	if v, ok := c.get(fmt.Sprint("tok", seatCacheSize+9)); !ok || v.game != int64(seatCacheSize+9) {
		t.Errorf("the last token put is not kept: %v %v", v, ok)
	}
}

// TestJoinGoesToTheGlobalLock: on PostgreSQL a mail to a seat whose
// player has not joined runs under the global lock from the start, as a
// join writes its player's row, which a game's transaction would give
// way for; once he has joined, his mail runs in his game's transaction.
// A seat the cache wrongly holds as joined costs only the escalation.
func TestJoinGoesToTheGlobalLock(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("on SQLite every batch runs under the one writer: set " + storetest.PostgresEnv)
	}
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	w.send(players[0], "pbem@example.test", "new felix with "+strings.Join(players[1:], " "))
	reply := map[string]string{}
	for _, p := range players[1:] {
		reply[p] = w.last(p).ReplyTo
	}
	game := w.gameOf(reply["bob@y.test"])
	mail := func(uid uint32, from, body string) *readInbound {
		raw := "From: " + from + "\r\nTo: " + reply[from] + "\r\nSubject: Re: pbem\r\n" +
			fmt.Sprintf("Message-ID: <join-%d@x.test>\r\n", uid) + "Date: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n" + body + "\r\n"
		return w.svc.read(mailMessage(uid, raw))
	}
	ctx := context.Background()
	if got := w.svc.batchGame(ctx, []*readInbound{mail(1, "bob@y.test", "join")}); got != 0 {
		t.Errorf("bob's join: batchGame %d, want 0 (the global lock)", got)
	}
	w.send("bob@y.test", reply["bob@y.test"], "join")
	if got := w.svc.batchGame(ctx, []*readInbound{mail(2, "bob@y.test", "help")}); got != game {
		t.Errorf("bob's mail after his join: batchGame %d, want his game %d", got, game)
	}
	// A question before the join leaves the seat invited.
	w.send("carol@z.test", reply["carol@z.test"], "help")
	if got := w.svc.batchGame(ctx, []*readInbound{mail(3, "carol@z.test", "join")}); got != 0 {
		t.Errorf("carol's join after her question: batchGame %d, want 0", got)
	}
	// A cache that says joined when she has not: her join runs in the
	// game's transaction, gives way, and is applied once.
	token := strings.TrimSuffix(strings.TrimPrefix(reply["carol@z.test"], "pbem+"), "@example.test")
	w.svc.seats.put(token, seatOf{game: game, address: "carol@z.test"})
	w.send("carol@z.test", reply["carol@z.test"], "join")
	if st := w.loaded(game).Row.Status; st == store.StatusInviting {
		t.Errorf("the game is still inviting after every join")
	}
}
