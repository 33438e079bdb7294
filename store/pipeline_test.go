package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The writes a transaction gives to later (pipeline.go) go to the server
// with its next statement on PostgreSQL, and run at once on SQLite. On
// both, a transaction sees them, and one that fails fails the
// transaction, or the savepoint, it was given in, with its own error:
// never the error of the statement the server refused after it, and
// never after a commit.

// addPlayerLater gives later the insert of a player's row: a unique-key
// violation when the row is there already.
func addPlayerLater(ctx context.Context, tx *Tx, address string) error {
	return tx.later(ctx, "add a player", `INSERT INTO players (address) VALUES (?)`, address)
}

// errStop is what a transaction's or a savepoint's function fails with
// in these tests, so that it is rolled back.
var errStop = errors.New("stop")

// addPlayerThenStop is a savepoint's function that adds a player and
// then fails with errStop.
func addPlayerThenStop(ctx context.Context, tx *Tx, address string) error {
	if err := addPlayerLater(ctx, tx, address); err != nil {
		return err
	}
	return errStop
}

func TestLaterIsSeen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		if err := addPlayerLater(ctx, tx, "ann@x.test"); err != nil {
			return err
		}
		if _, err := tx.reader.Player(ctx, "ann@x.test"); err != nil {
			t.Errorf("the transaction's read does not see its write given to later: %v", err)
		}
		return nil
	})
	if _, err := s.Player(ctx, "ann@x.test"); err != nil {
		t.Errorf("a write given to later before the commit: %v", err)
	}
}

func TestLaterFailsItsTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error { return addPlayerLater(ctx, tx, "ann@x.test") })

	for _, c := range []struct {
		name string
		then func(tx *Tx) error // what the transaction does after the failing write
	}{
		{"then a read", func(tx *Tx) error {
			_, err := tx.reader.Player(ctx, "bob@x.test") // refused by the server, for the write before it
			return err
		}},
		{"then a write that counts its rows", func(tx *Tx) error {
			return tx.SetPlayerZoneAsked(ctx, "ann@x.test")
		}},
		{"then the commit", func(tx *Tx) error { return nil }},
		{"then a failure ignored", func(tx *Tx) error {
			tx.reader.Player(ctx, "bob@x.test")
			return nil
		}},
	} {
		err := s.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.UpsertPlayer(ctx, "carl@x.test", ""); err != nil {
				return err
			}
			if err := addPlayerLater(ctx, tx, "ann@x.test"); err != nil {
				return err // SQLite: at once
			}
			return c.then(tx)
		})
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("%s: the transaction ended with %v, want the failed write's ErrDuplicate", c.name, err)
		}
		if _, err := s.Player(ctx, "carl@x.test"); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: the transaction's other write was committed (%v)", c.name, err)
		}
	}
}

func TestLaterFailsItsSavepoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error { return addPlayerLater(ctx, tx, "ann@x.test") })
	var inner error
	mustTx(t, s, func(tx *Tx) error {
		inner = tx.Savepoint(ctx, func() error {
			if err := addPlayerLater(ctx, tx, "bob@x.test"); err != nil {
				return err
			}
			return addPlayerLater(ctx, tx, "ann@x.test")
		})
		// The transaction goes on after the savepoint's rollback.
		return addPlayerLater(ctx, tx, "carl@x.test")
	})
	if !errors.Is(inner, ErrDuplicate) {
		t.Errorf("the savepoint ended with %v, want the failed write's ErrDuplicate", inner)
	}
	if _, err := s.Player(ctx, "bob@x.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the failed savepoint's other write was committed (%v)", err)
	}
	if _, err := s.Player(ctx, "carl@x.test"); err != nil {
		t.Errorf("the write after the failed savepoint: %v", err)
	}
}

func TestLaterRolledBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	stop := errStop
	err := s.Tx(ctx, func(tx *Tx) error {
		return addPlayerThenStop(ctx, tx, "ann@x.test")
	})
	if !errors.Is(err, stop) {
		t.Fatalf("the transaction ended with %v, want its function's error", err)
	}
	if _, err := s.Player(ctx, "ann@x.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a write given to later in a transaction rolled back was committed (%v)", err)
	}
	// The savepoint's rollback drops them too, and what came before stays.
	mustTx(t, s, func(tx *Tx) error {
		if err := addPlayerLater(ctx, tx, "bob@x.test"); err != nil {
			return err
		}
		if err := tx.Savepoint(ctx, func() error {
			return addPlayerThenStop(ctx, tx, "carl@x.test")
		}); !errors.Is(err, stop) {
			t.Errorf("the savepoint ended with %v, want its function's error", err)
		}
		return nil
	})
	if _, err := s.Player(ctx, "bob@x.test"); err != nil {
		t.Errorf("the write before the savepoint: %v", err)
	}
	if _, err := s.Player(ctx, "carl@x.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a write given to later in a savepoint rolled back was committed (%v)", err)
	}
}

// Post writes what Enqueue writes, and a Message-ID already in the
// outbox leaves it as it was.
func TestPostIsEnqueue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@x.test", "bob@x.test")
	o := Outgoing{MessageID: "<p1@x.test>", GameID: g, Seat: 1, To: "Bob@X.test", Raw: []byte("one"), NotBefore: t0,
		Decision: 2, SeenEvent: 3}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.Post(ctx, o); err != nil {
			return err
		}
		e := o
		e.MessageID = "<e1@x.test>"
		_, _, err := tx.Enqueue(ctx, e)
		return err
	})
	again := o
	again.Raw = []byte("two")
	mustTx(t, s, func(tx *Tx) error { return tx.Post(ctx, again) })
	all, err := s.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Fatalf("%d mails in the outbox, want 2: %+v", len(all), all)
	}
	posted, enqueued := all[0], all[1]
	if string(posted.Raw) != "one" {
		t.Errorf("a second Post of one Message-ID changed the mail to %q", posted.Raw)
	}
	posted.ID, posted.MessageID = enqueued.ID, enqueued.MessageID
	if posted.To != "bob@x.test" || string(posted.Raw) != string(enqueued.Raw) || posted.GameID != enqueued.GameID ||
		posted.Seat != enqueued.Seat || posted.Decision != enqueued.Decision || posted.SeenEvent != enqueued.SeenEvent ||
		!posted.NotBefore.Equal(enqueued.NotBefore) || posted.State != enqueued.State {
		t.Errorf("Post wrote %+v, Enqueue %+v", posted, enqueued)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.Post(ctx, Outgoing{MessageID: "<p2@x.test>"}) }); err == nil {
		t.Error("Post took a mail without recipient or message")
	}
}

// A read that names none of the tables the waiting writes change goes
// before them, in its own round trip, and they go with the commit; one
// that names one goes after them, in one batch with them, and sees them
// (PostgreSQL: on SQLite a write given to later has run already).
func TestLaterReadsOvertake(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test")
	runs := 0
	run := func(thenPlayer bool) int64 {
		runs++
		address := fmt.Sprintf("p%d@x.test", runs)
		before := s.Counts().RoundTrips
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.reader.Game(ctx, id); err != nil { // BEGIN and the lock, then the read
				return err
			}
			if err := addPlayerLater(ctx, tx, address); err != nil {
				return err
			}
			if _, err := tx.reader.Game(ctx, id); err != nil { // games: before the insert
				return err
			}
			if thenPlayer {
				if _, err := tx.reader.Player(ctx, address); err != nil { // players: after it, seeing it
					t.Errorf("a read of the table a waiting write changes did not see it: %v", err)
				}
			}
			return nil
		})
		trips := s.Counts().RoundTrips - before
		if _, err := s.Player(ctx, address); err != nil {
			t.Errorf("the write given to later was not committed: %v", err)
		}
		return trips
	}
	for _, c := range []struct {
		thenPlayer bool
		trips      int64
	}{
		// BEGIN, the lock and the game; the game again; the insert
		// and the COMMIT.
		{false, 3},
		// … the game again; the insert and the player; the COMMIT.
		{true, 4},
	} {
		trips := int64(-1)
		for range 4 {
			if n := run(c.thenPlayer); trips < 0 || n < trips {
				trips = n
			}
		}
		if s.Engine() == PostgreSQL && trips != c.trips {
			t.Errorf("reading the player too %t: %d round trips, want %d", c.thenPlayer, trips, c.trips)
		}
	}
}

// TestSeatWritesJoin: a command's writes of one seat that the
// transaction keeps (a deadline, the last event mailed, the Message-ID)
// are one statement, the row written once with what the last of them
// left; another seat's write, a read of another table or an address's
// lock between them changes nothing (a lock that guards seats would:
// pendingOrder's cases). On both engines the row committed is the row
// the transaction kept.
func TestSeatWritesJoin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test", "bob@x.test")
	deadline := time.Unix(1_800_000_000, 0).UTC()
	for i, c := range []struct {
		name    string
		between func(tx *Tx) error
		own, pg int64 // the statements of between, and of the seat's writes on PostgreSQL
		pgOnly  bool  // between runs no statement on SQLite
	}{
		{"nothing between", func(*Tx) error { return nil }, 0, 1, false},
		// On PostgreSQL the other seat's row joins the first write (pgTx.join),
		// and the first seat's later writes merge into that one statement.
		{"another seat's write between", func(tx *Tx) error { return tx.SetDeadline(ctx, id, 1, deadline) }, 1, 0, false},
		{"a read of another table between", func(tx *Tx) error { _, err := tx.reader.Player(ctx, "nobody@x.test"); return ignoreNotFound(err) }, 1, 1, false},
		{"an address's lock between", func(tx *Tx) error { return tx.lockAddress(ctx, "ann@x.test") }, 1, 1, true},
	} {
		var kept Seat
		var n int64
		msgID := fmt.Sprintf("m%d@x.test", i)
		err := s.GameTx(ctx, id, func(tx *Tx) error {
			if _, err := tx.Seats(ctx, id); err != nil {
				return err
			}
			start := s.Counts().Statements
			if err := tx.SetDeadline(ctx, id, 0, deadline.Add(time.Duration(i)*time.Hour)); err != nil {
				return err
			}
			if err := c.between(tx); err != nil {
				return err
			}
			if err := tx.SetSeatLastMailedEvent(ctx, id, 0, int64(40+i)); err != nil {
				return err
			}
			if err := tx.SetSeatMessageID(ctx, id, 0, msgID); err != nil {
				return err
			}
			n = s.Counts().Statements - start
			var err error
			kept, err = tx.Seat(ctx, id, 0)
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := c.own + 1 // SQLite: the seat's writes wait on the session (deferSeat)
		if c.pgOnly {
			want = 1
		}
		if s.Engine() == PostgreSQL {
			want = c.own + c.pg
		}
		if n != want {
			t.Errorf("%s: %d statements on %s, want %d", c.name, n, s.Engine(), want)
		}
		stored, err := s.Seat(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if stored != kept || stored.LastMailedEvent != int64(40+i) || stored.LastMessageID != msgID ||
			!stored.Deadline.Equal(deadline.Add(time.Duration(i)*time.Hour)) {
			t.Errorf("%s: seat 0 committed as\n%+v\nkept as\n%+v", c.name, stored, kept)
		}
		if i == 1 {
			if other, err := s.Seat(ctx, id, 1); err != nil || !other.Deadline.Equal(deadline) {
				t.Errorf("%s: seat 1 committed with deadline %v (%v), want %v", c.name, other.Deadline, err, deadline)
			}
		}
	}
}

// ignoreNotFound is err, but nil for ErrNotFound.
func ignoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// TestPendingOrder checks the order rules of a PostgreSQL transaction's
// waiting writes (pipeline.go) on their own: which reads must go after
// them, and when a later write of a seat's row may take an earlier one's
// place.
func TestPendingOrder(t *testing.T) {
	t.Parallel()
	seat := func(p *pgTx) { p.laterKeyed(seatKey{1, 0}, "update a seat", seatRowSQL, make([]any, 10)) }
	pending := map[string]func(p *pgTx){
		"BEGIN":             func(p *pgTx) { p.later("begin", "BEGIN", nil) },
		"pbem's lock":       func(p *pgTx) { p.later("lock", `SELECT pg_advisory_xact_lock_shared(1885496685, 1)`, nil) },
		"an address's lock": func(p *pgTx) { p.laterLock("lock an address", addressLockSQL, addressTables, []any{"ann@x.test"}) },
		"a seat's row":      seat,
		"a player": func(p *pgTx) {
			p.later("add a player", `INSERT INTO players (address) VALUES (?)`, []any{"ann@x.test"})
		},
		"a seat, unkeyed": func(p *pgTx) {
			p.later("join", `UPDATE seats SET state = 'joined' WHERE game_id = ? AND seat = ?`, []any{1, 0})
		},
	}
	const (
		game     = `SELECT id, kind FROM games WHERE id = ?`
		seats    = `SELECT game_id, seat, deadline, decision FROM seats WHERE game_id = ?`
		seated   = `SELECT address, name FROM players WHERE address IN (SELECT address FROM seats WHERE game_id = ?)`
		budget   = `SELECT count(*) FROM budget WHERE address = ?`
		mailbox  = `SELECT coalesce(max(no_invitations), 0) FROM mailboxes WHERE mailbox = ?`
		locking  = `SELECT id FROM games WHERE id = ? FOR UPDATE`
		anything = `SELECT * FROM seats WHERE game_id = ?`
	)
	for _, c := range []struct {
		pending string
		query   string
		waits   bool
	}{
		{"BEGIN", game, true},
		{"pbem's lock", game, true},
		{"an address's lock", game, false},
		{"an address's lock", seated, false},
		{"an address's lock", budget, true},
		{"an address's lock", mailbox, true},
		{"an address's lock", locking, true},
		{"a seat's row", game, false},
		{"a seat's row", seated, false},
		{"a seat's row", seats, true},
		{"a seat's row", anything, true},
		{"a seat, unkeyed", seated, true},
		{"a player", seated, true},
		{"a player", game, false},
	} {
		p := &pgTx{rb: &rebinder{}}
		pending[c.pending](p)
		if got := p.waitsFor(p.rb.rebind(c.query)); got != c.waits {
			t.Errorf("%s waiting, %q goes after it: %v, want %v", c.pending, c.query, got, c.waits)
		}
	}
	for _, c := range []struct {
		between string
		merges  bool
	}{
		{"an address's lock", true},
		{"a player", true},
		{"pbem's lock", false},
		{"a seat, unkeyed", false},
	} {
		p := &pgTx{rb: &rebinder{}}
		seat(p)
		pending[c.between](p)
		if got := p.merge(seatKey{1, 0}, make([]any, 10)); got != c.merges {
			t.Errorf("a seat's row written again after %s: merged %v, want %v", c.between, got, c.merges)
		}
	}
}

// TestReadsOvertakeWhatTheyCannotSee: on PostgreSQL, a read of the
// game after an address's lock, and of the seats' players after a seat's
// row written whole, go before them in a round trip of their own, and
// the lock and the write go with the commit; a read of the seats' own
// columns goes after the write, in one batch with it, and sees it.
func TestReadsOvertakeWhatTheyCannotSee(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test", "bob@x.test")
	deadline := time.Unix(1_800_000_000, 0).UTC()
	for _, c := range []struct {
		name  string
		then  func(tx *Tx) error
		trips int64
	}{
		{"an address's lock, then the game", func(tx *Tx) error {
			if err := tx.lockAddress(ctx, "ann@x.test"); err != nil {
				return err
			}
			_, err := tx.reader.Game(ctx, id)
			return err
		}, 1},
		{"a seat's deadline, then the seats' players", func(tx *Tx) error {
			if err := tx.SetDeadline(ctx, id, 0, deadline); err != nil {
				return err
			}
			_, err := tx.reader.SeatedPlayers(ctx, id)
			return err
		}, 1},
		{"a seat's deadline, then the seats", func(tx *Tx) error {
			if err := tx.SetDeadline(ctx, id, 1, deadline); err != nil {
				return err
			}
			ss, err := tx.reader.Seats(ctx, id)
			if err == nil && !ss[1].Deadline.Equal(deadline) {
				t.Errorf("the seats read after a seat's deadline do not show it: %v", ss[1].Deadline)
			}
			return err
		}, 1},
	} {
		trips := int64(-1)
		for range 3 { // the first time on a connection, pgx prepares
			var n int64
			err := s.GameTx(ctx, id, func(tx *Tx) error {
				if _, err := tx.Seats(ctx, id); err != nil { // the transaction's start, and the seats kept
					return err
				}
				before := s.Counts().RoundTrips
				err := c.then(tx)
				n = s.Counts().RoundTrips - before
				return err
			})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if trips < 0 || n < trips {
				trips = n
			}
		}
		if s.Engine() == PostgreSQL && trips != c.trips {
			t.Errorf("%s: %d round trips before the commit, want %d", c.name, trips, c.trips)
		}
	}
}

// TestReceiveKeeping: on PostgreSQL, ReceiveKeeping reads a game's row,
// its seats and their players in the round trip of the mail's record,
// after which the transaction's reads of them, and of a seat by its
// token, take none and give what the store holds; a game that does not
// exist keeps nothing. On SQLite it runs the record's statement alone.
func TestReceiveKeeping(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test", "bob@x.test")
	want, err := s.Seats(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantGame, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantPlayers, err := s.SeatedPlayers(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	trips := int64(-1)
	mails := 0
	receive := func(tx *Tx, game int64) error {
		mails++
		in := Inbound{MessageID: fmt.Sprintf("<k%d@x.test>", mails), Mailbox: "INBOX", UIDValidity: 1, UID: uint32(mails),
			From: "ann@x.test", Outcome: "handling", ReceivedAt: t0}
		_, seen, err := tx.ReceiveKeeping(ctx, in, Keeping{Game: game})
		if err == nil && seen {
			t.Errorf("mail %d was seen before", mails)
		}
		return err
	}
	for range 3 { // the first time on a connection, pgx prepares
		var n, statements int64
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.PendingUndo(ctx, 0); err != nil && !errors.Is(err, ErrNotFound) { // the transaction's start
				return err
			}
			before, stBefore := s.Counts().RoundTrips, s.Counts().Statements
			if err := receive(tx, id); err != nil {
				return err
			}
			g, err := tx.Game(ctx, id)
			if err != nil || g.ID != wantGame.ID || g.LastSeq != wantGame.LastSeq || g.Status != wantGame.Status {
				t.Errorf("the kept game: %+v (%v)", g, err)
			}
			ss, err := tx.Seats(ctx, id)
			if err != nil || !slices.Equal(ss, want) {
				t.Errorf("the kept seats: %+v (%v), want %+v", ss, err, want)
			}
			st, err := tx.SeatByToken(ctx, strings.ToUpper(want[1].Token))
			if err != nil || st != want[1] {
				t.Errorf("the seat by its token: %+v (%v)", st, err)
			}
			ps, err := tx.SeatedPlayers(ctx, id)
			if err != nil || !reflect.DeepEqual(ps, wantPlayers) {
				t.Errorf("the kept players: %+v (%v), want %+v", ps, err, wantPlayers)
			}
			if err := receive(tx, id+100); err != nil {
				return err
			}
			if _, err := tx.Game(ctx, id+100); !errors.Is(err, ErrNotFound) {
				t.Errorf("a game that does not exist: %v", err)
			}
			n, statements = s.Counts().RoundTrips-before, s.Counts().Statements-stBefore
			return nil
		})
		if trips < 0 || n < trips {
			trips = n
		}
		if s.Engine() == SQLite && statements != 6 {
			t.Errorf("SQLite: %d statements, want 6 (the two records, and Game, Seats, SeatedPlayers, and Game of the game that does not exist)", statements)
		}
	}
	// On PostgreSQL: the record with the game, its seats and their
	// players; the other record with the other game's; its row again, by
	// Game.
	if s.Engine() == PostgreSQL && trips != 3 {
		t.Errorf("%d round trips, want 3", trips)
	}

	// A game's transaction reads the same as it locks the game's row
	// (lockAndKeep): on PostgreSQL its reads of them take no round trip
	// after the lock's.
	if err := s.GameTx(ctx, id, func(tx *Tx) error {
		before := s.Counts().RoundTrips
		g, err := tx.Game(ctx, id)
		if err != nil || g.ID != id {
			t.Errorf("the game in its transaction: %+v (%v)", g, err)
		}
		ss, err := tx.Seats(ctx, id)
		if err != nil || !slices.Equal(ss, want) {
			t.Errorf("the seats in the game's transaction: %+v (%v), want %+v", ss, err, want)
		}
		ps, err := tx.SeatedPlayers(ctx, id)
		if err != nil || !reflect.DeepEqual(ps, wantPlayers) {
			t.Errorf("the players in the game's transaction: %+v (%v), want %+v", ps, err, wantPlayers)
		}
		p, err := tx.Player(ctx, "Bob@x.test")
		if err != nil || p != wantPlayers["bob@x.test"] {
			t.Errorf("a seat's player in the game's transaction: %+v (%v)", p, err)
		}
		if n := s.Counts().RoundTrips - before; s.Engine() == PostgreSQL && n != 0 {
			t.Errorf("the game, its seats and players after the lock: %d round trips, want none", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestSavepointWaits: on PostgreSQL a SAVEPOINT waits with the writes
// for the next statement (pgTx.control). A savepoint rolled back before
// it was sent drops what was given in it and keeps what came before; one
// sent is rolled back on the server; a savepoint inside another, and one
// after one rolled back unsent, keep their own writes. On SQLite the
// same transactions commit the same rows.
func TestSavepointWaits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test")
	stop := errStop
	read := func(tx *Tx) error { _, err := tx.reader.Game(ctx, id); return err }
	mustTx(t, s, func(tx *Tx) error {
		// Sent by a read inside it, then rolled back on the server.
		if err := tx.Savepoint(ctx, func() error {
			if err := read(tx); err != nil {
				return err
			}
			return addPlayerThenStop(ctx, tx, "a1@x.test")
		}); !errors.Is(err, stop) {
			t.Errorf("a savepoint sent: %v, want its function's error", err)
		}
		// Unsent and rolled back, then one that keeps its write.
		if err := tx.Savepoint(ctx, func() error {
			return addPlayerThenStop(ctx, tx, "a2@x.test")
		}); !errors.Is(err, stop) {
			t.Errorf("a savepoint unsent: %v, want its function's error", err)
		}
		if err := tx.Savepoint(ctx, func() error { return addPlayerLater(ctx, tx, "a3@x.test") }); err != nil {
			return err
		}
		// Inside one sent, one unsent and rolled back.
		return tx.Savepoint(ctx, func() error {
			if err := read(tx); err != nil {
				return err
			}
			if err := addPlayerLater(ctx, tx, "a4@x.test"); err != nil {
				return err
			}
			if err := tx.Savepoint(ctx, func() error {
				return addPlayerThenStop(ctx, tx, "a5@x.test")
			}); !errors.Is(err, stop) {
				t.Errorf("a savepoint inside another: %v, want its function's error", err)
			}
			return addPlayerLater(ctx, tx, "a6@x.test")
		})
	})
	for _, c := range []struct {
		address string
		kept    bool
	}{{"a1@x.test", false}, {"a2@x.test", false}, {"a3@x.test", true}, {"a4@x.test", true}, {"a5@x.test", false}, {"a6@x.test", true}} {
		_, err := s.Player(ctx, c.address)
		if kept := err == nil; kept != c.kept {
			t.Errorf("%s committed %v, want %v (%v)", c.address, kept, c.kept, err)
		}
	}
}

// TestSeatRowsInOneStatement: on PostgreSQL the writes of several seats
// of one game that wait one after the other (a round's end gives each
// seat its new decision) are one statement (pgTx.join), a later write
// of any of those seats takes its place in it (merge), and each row
// commits as the transaction kept it. Its plan finds the game's seats by
// the primary key, among many games'.
func TestSeatRowsInOneStatement(t *testing.T) {
	postgresOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	seats := []string{"ann@x.test", "bob@x.test", "cat@x.test", "dan@x.test"}
	id := newGame(t, s, seats...)
	other := newGame(t, s, "eve@x.test", "fay@x.test")
	since := time.Unix(1_800_000_000, 0).UTC()
	var kept []Seat
	var n int64
	err := s.Tx(ctx, func(tx *Tx) error {
		for _, g := range []int64{id, other} {
			if _, err := tx.Seats(ctx, g); err != nil {
				return err
			}
		}
		start := s.Counts().Statements
		for i := range seats {
			d := since.Add(time.Duration(i+1) * time.Hour)
			if err := tx.NewDecisionReminded(ctx, id, i, since, d, d.Add(-time.Minute), time.Minute); err != nil {
				return err
			}
		}
		if err := tx.ClearDeadline(ctx, id, 2); err != nil { // a NULL among the values
			return err
		}
		if err := tx.SetSeatMessageID(ctx, id, 1, "m1@x.test"); err != nil {
			return err
		}
		// Another game's seat is a statement of its own.
		if err := tx.SetSeatLastMailedEvent(ctx, other, 0, 9); err != nil {
			return err
		}
		n = s.Counts().Statements - start
		var err error
		kept, err = tx.Seats(ctx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("the writes of four seats of one game and one of another ran %d statements, want 2", n)
	}
	stored, err := s.Seats(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stored, kept) {
		t.Errorf("the seats committed as\n%+v\nkept as\n%+v", stored, kept)
	}
	for i, st := range stored {
		switch {
		case i == 2 && !st.Deadline.IsZero():
			t.Errorf("seat 2's deadline is %v, want none (cleared)", st.Deadline)
		case i != 2 && !st.Deadline.Equal(since.Add(time.Duration(i+1)*time.Hour)):
			t.Errorf("seat %d's deadline is %v", i, st.Deadline)
		case st.Decision == 0:
			t.Errorf("seat %d has no new decision", i)
		}
	}
	if stored[1].LastMessageID != "m1@x.test" {
		t.Errorf("seat 1's message id is %q, want the later write's", stored[1].LastMessageID)
	}
	if o, err := s.Seat(ctx, other, 0); err != nil || o.LastMailedEvent != 9 {
		t.Errorf("the other game's seat: last mailed %d, %v; want 9", o.LastMailedEvent, err)
	}

	// The plan, among many games' seats: an index look-up of the game's.
	err = s.Tx(ctx, func(tx *Tx) error {
		for _, q := range []string{
			`INSERT INTO players (address) SELECT 'p' || i || '@x.test' FROM generate_series(1, 4000) i`,
			`INSERT INTO games (kind, setup, creator, created_at) SELECT 'filler', '\x', 'p1@x.test', 0 FROM generate_series(1, 1000)`,
			`INSERT INTO seats (game_id, seat, address, name, token)
				SELECT g.id, k, 'p' || ((g.id * 4 + k) % 4000 + 1) || '@x.test', 'p', 't' || g.id || '-' || k
				FROM games g CROSS JOIN generate_series(0, 3) k WHERE g.kind = 'filler'`,
			`ANALYZE seats`,
		} {
			if _, err := tx.tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		var args []any
		for i := range 4 {
			args = append(args, nil, nil, nil, int64(0), int64(1), int64(0), "", "", id, int64(i))
		}
		rows, err := tx.tx.QueryContext(ctx, "EXPLAIN "+seatRowsSQL[4], args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return err
			}
			plan = append(plan, line)
		}
		if p := strings.Join(plan, "\n"); strings.Contains(p, "Seq Scan on seats") || !strings.Contains(p, "Index Scan") {
			t.Errorf("the plan of four seats' rows reads more than the game's seats:\n%s", p)
		}
		return errStop // nothing of the fill stays
	})
	if !errors.Is(err, errStop) {
		t.Fatal(err)
	}
}

// TestReadGoesAfterWhatItMustSee: a read waits for the writes it could
// see and no more (pgTx.mustFollow). A read of events from the table
// (reader.Events, not the log a transaction keeps: txevents.go) goes
// in the round trip of their insert, and a seat's row written after
// them waits on, for the seat's next write to take its place: two
// writes of the seat, one statement.
func TestReadGoesAfterWhatItMustSee(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@x.test", "bob@x.test")
	deadline := time.Unix(1_800_000_000, 0).UTC()
	trips := int64(-1)
	for i := range 3 { // the first time on a connection, pgx prepares
		var n, seatStatements int64
		var read []Event
		err := s.GameTx(ctx, id, func(tx *Tx) error {
			if _, err := tx.Seats(ctx, id); err != nil {
				return err
			}
			if err := tx.AppendEvents(ctx, id, 0, []Event{{To: Public, Kind: "k", Text: fmt.Sprintf("event %d", i)}}); err != nil {
				return err
			}
			start := s.Counts().Statements
			if err := tx.SetDeadline(ctx, id, 0, deadline.Add(time.Duration(i)*time.Hour)); err != nil {
				return err
			}
			before := s.Counts().RoundTrips
			var err error
			if read, err = tx.reader.Events(ctx, id, 0); err != nil {
				return err
			}
			n = s.Counts().RoundTrips - before
			if err := tx.SetSeatLastMailedEvent(ctx, id, 0, int64(7+i)); err != nil {
				return err
			}
			seatStatements = s.Counts().Statements - start - 1 // less the read
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != i+1 || read[i].Text != fmt.Sprintf("event %d", i) {
			t.Errorf("the read of the events after their insert read %+v", read)
		}
		if trips < 0 || n < trips {
			trips = n
		}
		if s.Engine() == PostgreSQL && seatStatements != 1 {
			t.Errorf("the seat's two writes around the read were %d statements, want 1", seatStatements)
		}
		seat, err := s.Seat(ctx, id, 0)
		if err != nil || !seat.Deadline.Equal(deadline.Add(time.Duration(i)*time.Hour)) || seat.LastMailedEvent != int64(7+i) {
			t.Errorf("seat 0 committed with deadline %v and last mailed %d (%v)", seat.Deadline, seat.LastMailedEvent, err)
		}
	}
	if s.Engine() == PostgreSQL && trips != 1 {
		t.Errorf("the read of the events took %d round trips, want 1, with their insert", trips)
	}
}

// TestReceiveKeepingReply: the outbox row of the Message-ID a mail
// answers is read with the mail's record (on PostgreSQL in its round
// trip), found or not, and OutgoingHeader then gives what the store
// holds without a statement, until the transaction writes the outbox:
// a Message-ID kept as no mail's finds the mail the transaction queues
// under it afterwards.
func TestReceiveKeepingReply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@x.test", "bob@x.test")
	mustTx(t, s, func(tx *Tx) error {
		_, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<answered@pbem>", GameID: game, Seat: 1, Decision: 4, SeenEvent: 9,
			To: "bob@x.test", Raw: []byte("mail"), NotBefore: t0})
		return err
	})
	want, err := s.OutgoingHeader(ctx, "<answered@pbem>")
	if err != nil {
		t.Fatal(err)
	}
	mails := 0
	receive := func(tx *Tx, reply string) error {
		mails++
		in := Inbound{MessageID: fmt.Sprintf("<r%d@x.test>", mails), Mailbox: "INBOX", UIDValidity: 1, UID: uint32(mails),
			From: "bob@x.test", Outcome: "handling", ReceivedAt: t0}
		_, _, err := tx.ReceiveKeeping(ctx, in, Keeping{Game: game, Reply: reply})
		return err
	}
	for i := range 2 { // the first time on a connection, pgx prepares
		nobody := fmt.Sprintf("<nobody-%d@pbem>", i)
		mustTx(t, s, func(tx *Tx) error {
			if err := receive(tx, "<answered@pbem>"); err != nil {
				return err
			}
			if err := receive(tx, nobody); err != nil {
				return err
			}
			before, stBefore := s.Counts().RoundTrips, s.Counts().Statements
			o, err := tx.OutgoingHeader(ctx, "<answered@pbem>")
			if err != nil || !reflect.DeepEqual(o, want) {
				t.Errorf("the kept reply: %+v (%v), want %+v", o, err, want)
			}
			if _, err := tx.OutgoingHeader(ctx, nobody); !errors.Is(err, ErrNotFound) {
				t.Errorf("the reply kept as no mail's: %v, want ErrNotFound", err)
			}
			if n, st := s.Counts().RoundTrips-before, s.Counts().Statements-stBefore; s.Engine() == PostgreSQL && (n != 0 || st != 0) {
				t.Errorf("the kept replies read again: %d statements, %d round trips", st, n)
			}
			// The transaction queues a mail under the Message-ID kept
			// as no mail's: its read finds it.
			if err := tx.Post(ctx, Outgoing{MessageID: nobody, GameID: game, Seat: 0,
				To: "ann@x.test", Raw: []byte("mail"), NotBefore: t0}); err != nil {
				return err
			}
			if o, err := tx.OutgoingHeader(ctx, nobody); err != nil || o.To != "ann@x.test" {
				t.Errorf("the mail queued under a Message-ID kept as none: %+v (%v)", o, err)
			}
			return nil
		})
	}
}

// TestEventsKeepingAnswered: the events are Events', and whether each
// mailbox answered pbem is Answered's, by its budget key (an added
// address's mailbox answers for the player's), seeing what the
// transaction wrote before and has not sent yet (bob's added address
// marked answered marks his); on PostgreSQL read in one round trip,
// after which Answered asks nothing of the mailboxes read.
func TestEventsKeepingAnswered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@x.test", "bob@x.test", "cy@x.test")
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.AppendEvents(ctx, game, 0, []Event{{To: -1, Kind: "k", Text: "one"}, {To: 1, Kind: "k", Text: "two"}}); err != nil {
			return err
		}
		if err := tx.MarkAnswered(ctx, "ann@x.test", t0); err != nil {
			return err
		}
		if err := tx.AddAlias(ctx, Alias{Alias: "bob.work@x.test", Address: "bob@x.test", AliasMailbox: "bob.work@x.test", Mailbox: "bob@x.test"}); err != nil {
			return err
		}
		return tx.AddAlias(ctx, Alias{Alias: "ann.work@x.test", Address: "ann@x.test", AliasMailbox: "ann.work@x.test", Mailbox: "ann@x.test"})
	})
	want, err := s.Events(ctx, game, 0)
	if err != nil || len(want) != 2 {
		t.Fatalf("events: %v (%v)", want, err)
	}
	boxes := []string{"ann@x.test", "Ann.Work@x.test", "bob@x.test", "cy@x.test", "nobody@x.test"}
	rollback := errors.New("rolled back")
	least, leastAfter := int64(-1), int64(-1)
	for range 3 { // the first time on a connection, pgx prepares
		err := s.Tx(ctx, func(tx *Tx) error {
			// Written in this transaction, not yet sent on PostgreSQL.
			if err := tx.MarkAnswered(ctx, "bob.work@x.test", t0); err != nil {
				return err
			}
			before := s.Counts().RoundTrips
			evs, err := tx.EventsKeepingAnswered(ctx, game, want[0].ID, boxes)
			if err != nil || !reflect.DeepEqual(evs, want[1:]) {
				t.Errorf("events after the first: %+v (%v), want %+v", evs, err, want[1:])
			}
			read := s.Counts().RoundTrips - before
			for _, b := range boxes {
				got, err := tx.Answered(ctx, b)
				if err != nil {
					return err
				}
				if w := b != "cy@x.test" && b != "nobody@x.test"; got != w {
					t.Errorf("%s answered %t, want %t", b, got, w)
				}
			}
			if n := s.Counts().RoundTrips - before; least < 0 || n < leastAfter {
				least, leastAfter = read, n
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
	}
	if s.Engine() == PostgreSQL && (least != 1 || leastAfter != 1) {
		t.Errorf("the events and the mailboxes: %d round trips, and %d with Answered after; want 1 and 1", least, leastAfter)
	}
}
