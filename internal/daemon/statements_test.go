package daemon

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// statementsPerCommand pins how many statements the store runs for one
// ordinary mail of each kind, in a game of Felix of four players, on
// each engine (store.Counts): what a command costs the database, which
// issue 40 cut down. A change that adds a statement to the turn loop
// fails TestStatementsPerCommand, which then shows the statements by
// store method: update the figure here, knowingly, with the reason in
// the commit. PostgreSQL runs more for the same work: its transactions
// begin with pbem's lock, and a game's transaction locks its game's row.
// The round trips they take on PostgreSQL are logged beside: fewer than
// the statements, as the writes that need no answer travel with the
// next statement (store/pipeline.go), but more the first time a
// connection meets a statement, which pgx then prepares; store's
// TestCounts pins them for statements already prepared. On SQLite a
// mail queued is two statements, its row and its message
// (outbox_messages), which PostgreSQL writes in one. On both, the writes
// of one seat's row wait and join (store's deferSeat and pgTx.merge).
// A mail about a game the transaction read not over does not list the
// game for retention (store's Tx.Post and knownNotOver).
// On PostgreSQL a game's transaction reads the game's row and its seats
// in the round trip that locks the row (store's lockAndKeep), and a
// mail under Store.Tx reads them together (work.keepGame): a statement
// more for a join, whose game's transaction gave way to Store.Tx
// (ErrWiderLock), which read them again (no longer: see below); one
// fewer for a move, whose
// seat is then found by its token among the seats kept.
// A player whose game's seats the transaction keeps is read with the
// game's other players, and his vacation with his row (store's
// Tx.Player and Tx.AwayUntil): the players of a game that starts, or of
// a round that ends, were read one by one, then all together. The
// record of a mail (store's Tx.Receive) reads what Tx.Reachable asks of
// its sender, which was a statement of its own. A mail's seat is read
// by its token with its game's other seats (Tx.SeatByToken), before its
// sender, who is then read with the game's other players: on SQLite,
// whose game's transaction has not read them as it locked the game, a
// move reads its seat, its sender and the seats' players in two
// statements, where it took four.
// A unit spent from a budget or noted in it (store's Tx.Spend, Tx.Note)
// forgets nothing the transaction kept, where its DELETE made it read
// the game, its seats and players again; on PostgreSQL each is one
// statement, where they were four and three.
// On PostgreSQL the writes of several seats' rows of one game that wait
// one after the other are one statement (store's pgTx.join): a round's
// end gives each seat its decision at once. (The test's round trips
// count the statement's first preparation on the connection.)
// The record of a mail reads whether its sender's mailbox answered pbem
// (store's Tx.Receive, Tx.Answered), and a mailbox that did is not
// marked again (Tx.MarkAnswered): a statement, and on PostgreSQL in a
// game's transaction the address's lock too. The first move of the
// game's creator still marks his: his `new` did not.
// On PostgreSQL whether the mailboxes of the seats a command's mails are
// likely to go to answered pbem is one statement, read with the events
// (store's Tx.EventsKeepingAnswered), where each was a statement and a
// round trip: a game's start read its players' one by one.
// A write of a player's column keeps the player as written, where it
// made the transaction forget every player it kept (store's setPlayer):
// a join that starts a game asked each player for his zone and read him
// again, and on PostgreSQL waited for each write's answer.
// A mail acted on at a seat the service knows is recorded as applied
// there (apply's knownSeat), and Settle writes nothing when that is
// what became of it (store's Tx.Settle): the UPDATE of its record was a
// statement of every mail. On SQLite the seat is known once route has
// found it, from the seat's second mail on; on PostgreSQL gameOf finds
// it before the first.
// On PostgreSQL a mail to a seat whose player has not joined goes to
// Store.Tx at once (seatOf.invited): a join writes its player's row,
// and its game's transaction did the work, gave way and was rolled
// back; a join 22 → 14 statements, the one that starts the game 47 →
// 39.
// A write of one of a seat's columns whose row the transaction keeps
// keeps it as written, and on PostgreSQL needs no answer (store's
// setSeat): a join's state no longer makes the transaction forget the
// game's seats, whose writes after it then join; a join 14 → 13
// statements (13 → 12 on SQLite) and 9 → 6 round trips, the one that
// starts the game 39 → 35 (50 → 45) and 21 → 14.
// On PostgreSQL the round trip that reads a game under its lock, or with
// a mail's record, reads its event log and reserves ids for the events
// the transaction appends (store's txevents.go), and the service keeps
// the mailboxes it read as answered (outgoing's answeredBoxes): a move's
// mails are made without the round trip that read its events back, and
// whether their mailboxes answered, after its writes. Two statements
// more for every mail about a game, two fewer for a move that mails:
// a join 13 → 15, the one that starts the game 35 → 36, a move that
// waits 17 → 18 and 8 → 6 round trips, one that ends a round 16 and 6
// → 4, an answer to an unknown command 14 → 16; two games' moves in
// one batch 23 → 25 statements and 5 → 3 round trips. On SQLite a
// move that ends a round no longer asks whether a mailbox the service
// read as answered did, 16 → 15.
// The seat cache knows a new game's seats as they are made
// (writeNewGame): on SQLite an invitee's join, and the first move of a
// seat whose player had not written before, is recorded as applied
// there, and Settle writes nothing (a join 12 → 11, the one that starts
// the game 45 → 44, a move that waits 14 → 13), and on PostgreSQL the
// same Settle is saved (a join 15 → 14 statements and 6 → 4 round
// trips, the one that starts the game 36 → 35 and 14 → 13, a move that
// waits 18 → 17 and 6 → 5). On PostgreSQL a seat's insert counts its
// conflicts rather than taking a savepoint (store's AddSeat): three
// round trips a seat of a new game, now one. The reservation of event
// ids is rows of the event log's read (store's keptEventsSQL), not a
// statement of its own: one statement fewer for every mail about a
// game on PostgreSQL (a join 14 → 13, the one that starts the game 35
// → 34, a move that waits 17 → 16, one that ends a round 16 → 15, an
// answer to an unknown command 16 → 15), with the same round trips; and
// a game's seats and their players are one statement (store's
// seatsAndPlayersSQL), one fewer again (13 → 12, 34 → 33, 16 → 15,
// 15 → 14, 15 → 14).
var statementsPerCommand = []struct {
	name             string
	sqlite, postgres int
}{
	{"join, others still invited", 11, 12},
	{"join that starts the game", 44, 33},
	{"move that waits for others", 13, 15},
	{"move that completes a round", 15, 14},
	{"answer to an unknown command", 15, 14},
}

func TestStatementsPerCommand(t *testing.T) {
	t.Parallel()
	log := &statementLog{}
	w := newWorldWith(t, worldDatabase(t), func(c *Config) { c.Limits, c.Invitations = unlimited, unlimitedInvitations },
		store.WithStatementHook(log.hook))
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}

	// measure delivers one mail, counting the statements of its
	// handling alone: not those of sending what it mailed, which the
	// outbox does later, in transactions of its own.
	got := map[string]map[string]int{}
	trips := map[string]int64{}
	measure := func(name, from, to, body string) {
		t.Helper()
		log.start()
		before := w.st.Counts().RoundTrips
		w.handle(from, to, body)
		trips[name] = w.st.Counts().RoundTrips - before
		got[name] = log.stop()
		w.flush()
	}

	w.send(players[0], "pbem@example.test", "new felix with "+strings.Join(players[1:], " "))
	reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
	for _, p := range players[1:] {
		reply[p] = w.last(p).ReplyTo
	}
	measure("join, others still invited", players[1], reply[players[1]], "join")
	w.send(players[2], reply[players[2]], "join")
	measure("join that starts the game", players[3], reply[players[3]], "join")
	id := w.gameOf(reply[players[0]])
	if waiting := w.loaded(id).State.Waiting(); len(waiting) != len(players) {
		t.Fatalf("Felix starts waiting on %v, not on every seat", waiting)
	}
	measure("move that waits for others", players[0], reply[players[0]], w.legal(id, 0))
	w.send(players[1], reply[players[1]], w.legal(id, 1))
	w.send(players[2], reply[players[2]], w.legal(id, 2))
	measure("move that completes a round", players[3], reply[players[3]], w.legal(id, 3))
	measure("answer to an unknown command", players[0], reply[players[0]], "frobnicate the cat")

	for _, c := range statementsPerCommand {
		want := c.sqlite
		if w.st.Engine() == store.PostgreSQL {
			want = c.postgres
		}
		n := 0
		for _, k := range got[c.name] {
			n += k
		}
		t.Logf("%s on %s: %d statements, %d round trips\n%s", c.name, w.st.Engine(), n, trips[c.name], byMethod(got[c.name]))
		if n != want {
			t.Errorf("%s on %s: %d statements, want %d: if that is right, update statementsPerCommand\n%s",
				c.name, w.st.Engine(), n, want, byMethod(got[c.name]))
		}
	}
}

// statementLog counts the statements the store runs while it is
// started, by the store method that ran them (store.WithStatementHook).
type statementLog struct {
	mu     sync.Mutex
	on     bool
	counts map[string]int
}

func (l *statementLog) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on, l.counts = true, map[string]int{}
}

// stop returns the counts since start.
func (l *statementLog) stop() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return l.counts
}

func (l *statementLog) hook(query string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		l.counts[statementOf(query)]++
	}
}

// statementOf names a statement for the table: a transaction's own by
// its words, a query by the store method the daemon called that ran it,
// "tx." for a transaction's and "st." for a read outside one.
func statementOf(query string) string {
	switch {
	case strings.HasPrefix(query, "BEGIN"), strings.HasPrefix(query, "SELECT pg_advisory_xact_lock(1885496685"),
		strings.HasPrefix(query, "SELECT pg_advisory_xact_lock_shared(1885496685"):
		return "(begin)" // with pbem's lock, not an address's (under the method that takes it)
	case query == "COMMIT", query == "ROLLBACK":
		return "(" + strings.ToLower(query) + ")"
	case strings.HasPrefix(query, "SAVEPOINT"), strings.HasPrefix(query, "RELEASE"), strings.HasPrefix(query, "ROLLBACK TO"):
		return "(" + strings.ToLower(query) + ")" // with the savepoint's name
	}
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	method, inTx := "", false
	for {
		f, more := frames.Next()
		name, isStore := strings.CutPrefix(f.Function, "github.com/pbem/pbem/store.")
		switch {
		case isStore && strings.HasSuffix(name, "(*Store).run"):
			inTx = true
		case isStore && !done(method):
			method = name // the outermost store frame yet below the caller's
		case !isStore && method != "" && !done(method):
			method = "=" + method // the caller's frame: method is the one it called
		}
		if !more {
			break
		}
	}
	// "(*Tx).Enqueue.func1", "reader.Seat": the method's name alone.
	method, _, _ = strings.Cut(strings.TrimPrefix(method, "="), ".func")
	method = method[strings.LastIndex(method, ".")+1:]
	if inTx {
		return "tx." + method
	}
	return "st." + method
}

// done reports whether statementOf found the store method the caller
// called: it marks it with a leading "=".
func done(method string) bool { return strings.HasPrefix(method, "=") }

// byMethod writes counts as lines of a table, the most first.
func byMethod(counts map[string]int) string {
	names := slices.Sorted(maps.Keys(counts))
	slices.SortStableFunc(names, func(a, b string) int { return counts[b] - counts[a] })
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "\t%3d %s\n", counts[n], n)
	}
	return b.String()
}

// TestBatchOfGamesStatements pins the statements of a batch of two
// games' moves, which runs under Store.Tx rather than a game's own
// transaction: on PostgreSQL each mail's game and seats, whose seat the
// service knows from an earlier mail, are read in the round trip of the
// mail's record (work.keptGame, store's ReceiveKeeping) rather than the
// seat by its token, the game's row and its seats one after the other.
func TestBatchOfGamesStatements(t *testing.T) {
	t.Parallel()
	log, w, tables := twoGames(t)
	for _, tb := range tables {
		// A first move of each seat's player, alone: the service learns
		// the seat from its token (gameOf), as it does from any mail.
		w.send(tb.players[0], tb.reply[tb.players[0]], w.legal(tb.id, 0))
	}
	w.flush()
	var msgs []mailer.Message
	for _, tb := range tables {
		msgs = append(msgs, w.mail(tb.players[1], tb.reply[tb.players[1]], w.legal(tb.id, 1)))
	}
	log.start()
	before := w.st.Counts().RoundTrips
	if done, err := w.svc.HandleBatch(context.Background(), msgs); done != len(msgs) || err != nil {
		t.Fatalf("HandleBatch committed %d of %d: %v", done, len(msgs), err)
	}
	trips := w.st.Counts().RoundTrips - before
	got := log.stop()
	w.flush()
	n := 0
	for _, k := range got {
		n += k
	}
	// On PostgreSQL 37 statements and 29 round trips before keepGame,
	// 35 and 25 with it, and 23 since a SAVEPOINT waits with the writes;
	// 33 and 21 since a seated player is read with the game's others,
	// 31 and 19 since a mail's record reads its sender's bounces, and 17
	// round trips since KeepGame reads the seats' players too. On SQLite
	// 30, since a seat is read with its game's others. Since a batch is
	// tried first without savepoints (applyAll), 27 and 13 round trips
	// on PostgreSQL, 26 on SQLite; 25 and 24 since a mailbox that
	// answered is not marked again. On PostgreSQL 5 round trips since a
	// move's writes need no answer and the game is read with the record.
	// 22 and 23 since a mail's record is inserted as applied at the seat
	// the service knows (on SQLite too, from route), and Settle then
	// writes nothing. On PostgreSQL 23 since the event ids are reserved
	// in the event log's read, and 21 since a game's seats are read with
	// their players.
	want := 22 // SQLite
	if w.st.Engine() == store.PostgreSQL {
		want = 21
	}
	t.Logf("two games' moves in one batch on %s: %d statements, %d round trips\n%s", w.st.Engine(), n, trips, byMethod(got))
	if n != want {
		t.Errorf("two games' moves in one batch on %s: %d statements, want %d\n%s", w.st.Engine(), n, want, byMethod(got))
	}
	if got["(savepoint work)"] != 0 || got["(release work)"] != 0 {
		t.Errorf("a batch that commits whole took savepoints:\n%s", byMethod(got))
	}
	if w.st.Engine() == store.PostgreSQL && (got["tx.SeatByToken"] != 0 || got["tx.Game"] != 0 || got["tx.Seats"] != 0) {
		t.Errorf("the mails' seats, games and seats read one by one, not kept:\n%s", byMethod(got))
	}
}

// TestBatchLearnsSeats checks that a batch of several games' mail
// teaches the service their seats: under a load of games the mails come
// in such batches, the joins too, and a seat cache filled only by the
// look-up of a batch from one sender (gameOf) knew the seats of 30 % of
// the mails; each of the others paid three round trips on PostgreSQL
// that its record's could have carried (issue 40). After one batch of
// two games' mails, with the cache empty, the next batch from the same
// senders reads no seat by its token, no game and no seats apart.
func TestBatchLearnsSeats(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("the seat cache serves PostgreSQL's round trips")
	}
	t.Parallel()
	log, w, tables := twoGames(t)
	w.flush()
	w.svc.seats = seatCache{} // what the games' start taught it
	batch := func(body func(tb gameTable) string) map[string]int {
		var msgs []mailer.Message
		for _, tb := range tables {
			msgs = append(msgs, w.mail(tb.players[1], tb.reply[tb.players[1]], body(tb)))
		}
		log.start()
		if done, err := w.svc.HandleBatch(context.Background(), msgs); done != len(msgs) || err != nil {
			t.Fatalf("HandleBatch committed %d of %d: %v", done, len(msgs), err)
		}
		got := log.stop()
		w.flush()
		return got
	}
	first := batch(func(tb gameTable) string { return w.legal(tb.id, 1) })
	if first["tx.SeatByToken"] == 0 {
		t.Fatalf("the first batch, with the seat cache empty, read no seat by its token: the test sees nothing\n%s", byMethod(first))
	}
	second := batch(func(gameTable) string { return "what now" })
	if second["tx.SeatByToken"] != 0 || second["tx.Game"] != 0 || second["tx.Seats"] != 0 {
		t.Errorf("the second batch from the same seats read them one by one, not with their records:\n%s", byMethod(second))
	}
}

// gameTable is a game the batch tests started, with its players and the
// address each replies to.
type gameTable struct {
	id      int64
	players []string
	reply   map[string]string
}

// twoGames starts two games of Felix, three players each, in a world
// whose store logs its statements, without limits.
func twoGames(t *testing.T) (*statementLog, *world, []gameTable) {
	log := &statementLog{}
	w := newWorldWith(t, worldDatabase(t), func(c *Config) { c.Limits, c.Invitations = unlimited, unlimitedInvitations },
		store.WithStatementHook(log.hook))
	var tables []gameTable
	for _, ps := range [][]string{{"alice@x.test", "bob@y.test", "carol@z.test"}, {"dan@x.test", "eve@y.test", "fay@z.test"}} {
		reply, id := w.startGame("felix", ps...)
		tables = append(tables, gameTable{id, ps, reply})
	}
	return log, w, tables
}

// TestGuessedRecordSettlesTrue: a mail acted on at a seat the service
// knows is recorded as applied there before it is handled (apply's
// knownSeat), and whatever became of it is what its committed record
// says: applied at its game for a move, answered for a command the seat
// cannot use, refused for a mail from another address than the seat's,
// which is not guessed at. Statements are counted: only a record settled
// otherwise than it was inserted is updated.
func TestGuessedRecordSettlesTrue(t *testing.T) {
	t.Parallel()
	log, w, tables := twoGames(t)
	tb := tables[0]
	ann := tb.players[0]
	w.send(ann, tb.reply[ann], w.legal(tb.id, 0)) // the service learns the seat
	w.flush()
	if _, ok := w.svc.seats.get(w.outcome().Token); !ok {
		t.Fatalf("the seat is not in the seat cache after its mail: the test sees nothing")
	}
	// The world's mail has UIDs: Settle moves the mailbox's cursor, a
	// statement of every mail, and updates the record only if needed.
	updates := func() int { return log.stop()["tx.Settle"] - 1 }
	for _, c := range []struct {
		name, from, body string
		outcome          Outcome
		game             int64
		updated          int
	}{
		{"a move", tb.players[1], w.legal(tb.id, 1), OutcomeApplied, tb.id, 0},
		{"a command the seat cannot use", ann, "frobnicate the cat", OutcomeAnswered, tb.id, 1},
		{"a stranger at the seat's address", "mallory@evil.test", w.legal(tb.id, 2), OutcomeRefused, 0, 1},
	} {
		to := tb.reply[tb.players[1]]
		if c.from == ann {
			to = tb.reply[ann]
		}
		log.start()
		w.send(c.from, to, c.body)
		got := w.outcome()
		if n := updates(); n != c.updated {
			t.Errorf("%s: Settle updated the record %d times, want %d", c.name, n, c.updated)
		}
		w.flush()
		if Outcome(got.Outcome) != c.outcome || got.GameID != c.game {
			t.Errorf("%s: the record says %s at game %d (%q), want %s at game %d", c.name, got.Outcome, got.GameID, got.Detail, c.outcome, c.game)
		}
	}
}
