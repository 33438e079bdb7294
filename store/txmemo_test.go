package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestWrittenTable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query string
		table string
		ok    bool
	}{
		{"SELECT " + seatColumns + " FROM seats WHERE game_id = ?", "", true},
		{"  \n\tselect 1", "", true},
		{"UPDATE seats SET deadline = ? WHERE game_id = ? AND seat = ?", "seats", true},
		{"update OR IGNORE Players set name = ?", "players", true},
		{"INSERT INTO moves (game_id, seq) SELECT ?1, 1", "moves", true},
		{"INSERT OR IGNORE INTO games(id) VALUES (1)", "games", true},
		{`INSERT INTO main."seats" (a) VALUES (1)`, "seats", true},
		{"INSERT INTO outbox (message_id) VALUES (?) RETURNING id", "outbox", true},
		{"UPDATE temp.retained_outbox SET raw = x''", "retained_outbox", true},
		// What it cannot place makes the transaction forget everything.
		{"WITH b AS (SELECT id FROM outbox) UPDATE outbox SET state = 'sent'", "", false},
		{"DELETE FROM seats WHERE game_id = ?", "", false},
		{"INSERT seats VALUES (1)", "", false},
		{"UPDATE", "", false},
		{"PRAGMA foreign_keys = ON", "", false},
		{"", "", false},
	} {
		table, ok := writtenTable(c.query)
		if table != c.table || ok != c.ok {
			t.Errorf("writtenTable(%q) = %q, %v; want %q, %v", c.query, table, ok, c.table, c.ok)
		}
	}
}

// TestTxMemo checks that a transaction reads its game, seats and players
// once while it does not write them, and that its reads still see every
// write of its own, the rows it kept being copies of its own, and a
// savepoint rolled back leaving nothing kept of what it undid.
func TestTxMemo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ann, bob := "ann@example.org", "bob@example.org"
	id := newGame(t, s, ann, bob)
	// statements counts what fn runs.
	statements := func(fn func()) int64 {
		start := s.Counts().Statements
		fn()
		return s.Counts().Statements - start
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Unix(1_800_000_000, 0)
	mustTx(t, s, func(tx *Tx) error {
		// A game read twice is one statement, and the copy given out is
		// the caller's own.
		g, err := tx.Game(ctx, id)
		must(err)
		g.Setup = append(g.Setup[:0], 'X')
		var again Game
		if n := statements(func() { again, err = tx.Game(ctx, id) }); n != 0 || err != nil {
			t.Errorf("the game read again: %d statements, %v; want none", n, err)
		}
		if len(again.Setup) > 0 && again.Setup[0] == 'X' {
			t.Errorf("a caller's change to the game it read reached the next reader")
		}
		// A move, and then a snapshot, keep the game's row, with its last
		// move and its snapshot changed as the database has them.
		for _, w := range []struct {
			name  string
			write func() error
		}{
			{"a move", func() error {
				_, err := tx.AppendMove(ctx, id, Move{Seat: 0, Command: "pass", Source: SourceMail, At: t0})
				return err
			}},
			{"a snapshot", func() error { return tx.SaveSnapshot(ctx, id, 1, []byte(`{"after":1}`)) }},
			{"a second move", func() error {
				_, err := tx.AppendMove(ctx, id, Move{Seat: 1, Command: "pass", Source: SourceMail, At: t0})
				return err
			}},
		} {
			must(w.write())
			if n := statements(func() { again, err = tx.Game(ctx, id) }); n != 0 || err != nil {
				t.Errorf("the game after %s: %d statements, %v; want none", w.name, n, err)
			}
			stored, err := tx.reader.Game(ctx, id)
			must(err)
			if !reflect.DeepEqual(again, stored) {
				t.Errorf("the game kept after %s:\n%+v\nthe database's:\n%+v", w.name, again, stored)
			}
		}
		if again.LastSeq != g.LastSeq+2 || again.SnapshotSeq != 1 {
			t.Errorf("after two moves and a snapshot: last move %d, snapshot after %d; want %d and 1", again.LastSeq, again.SnapshotSeq, g.LastSeq+2)
		}

		// Seats, and a seat of them, without a statement once read.
		seats, err := tx.Seats(ctx, id)
		must(err)
		seats[0].Name = "changed"
		var seat Seat
		if n := statements(func() { seat, err = tx.Seat(ctx, id, 1) }); n != 0 || err != nil || seat.Address != bob {
			t.Errorf("seat 1 after the seats: %d statements, %s, %v; want none and %s", n, seat.Address, err, bob)
		}
		if n := statements(func() { seats, err = tx.Seats(ctx, id) }); n != 0 || err != nil || seats[0].Name == "changed" {
			t.Errorf("the seats again: %d statements, seat 0 named %q, %v; want none, and not the caller's change", n, seats[0].Name, err)
		}
		// A seat by its token, from the seats the transaction keeps.
		if n := statements(func() { seat, err = tx.SeatByToken(ctx, strings.ToUpper(seats[1].Token)) }); n != 0 || err != nil || seat != seats[1] {
			t.Errorf("seat 1 by its token: %d statements, %+v, %v; want none and %+v", n, seat, err, seats[1])
		}
		// A write to seats is seen.
		must(tx.SetDeadline(ctx, id, 0, deadline))
		if seat, err = tx.Seat(ctx, id, 0); err != nil || !seat.Deadline.Equal(deadline) {
			t.Errorf("seat 0 after its deadline was set: %v, %v; want %v", seat.Deadline, err, deadline)
		}
		if seats, err = tx.Seats(ctx, id); err != nil || !seats[0].Deadline.Equal(deadline) {
			t.Errorf("the seats after seat 0's deadline was set: %v, %v; want %v", seats[0].Deadline, err, deadline)
		}
		// The writes of a command's decisions, deadlines, threads and
		// mails keep the seats, changed as the database has them; each
		// is run twice, the second time from what the first left, and
		// once more on the other seat.
		since := deadline.Add(-90*time.Minute + 300*time.Millisecond)
		for _, w := range []struct {
			name  string
			write func(seat int) error
		}{
			{"a new decision", func(seat int) error {
				return tx.NewDecision(ctx, id, seat, since, deadline.Add(time.Hour+time.Millisecond))
			}},
			{"a new decision with its first reminder", func(seat int) error {
				return tx.NewDecisionReminded(ctx, id, seat, since, deadline.Add(3*time.Hour), deadline.Add(2*time.Hour+time.Millisecond), 59*time.Minute+time.Millisecond)
			}},
			{"a new decision without a reminder", func(seat int) error {
				return tx.NewDecisionReminded(ctx, id, seat, since, deadline.Add(3*time.Hour), time.Time{}, time.Hour)
			}},
			{"a reminder", func(seat int) error {
				return tx.SetReminder(ctx, id, seat, deadline.Add(-time.Hour+time.Millisecond), 61*time.Minute+time.Millisecond)
			}},
			{"no reminder", func(seat int) error { return tx.SetReminder(ctx, id, seat, time.Time{}, time.Hour) }},
			{"a deadline", func(seat int) error { return tx.SetDeadline(ctx, id, seat, deadline.Add(2*time.Hour)) }},
			{"a mail's Message-ID", func(seat int) error { return tx.SetSeatMessageID(ctx, id, seat, fmt.Sprintf("<m%d@x>", seat)) }},
			{"a later Message-ID", func(seat int) error { return tx.SetSeatMessageID(ctx, id, seat, "<later@x>") }},
			{"a last mailed event", func(seat int) error { return tx.SetSeatLastMailedEvent(ctx, id, seat, 4242+int64(seat)) }},
			{"no deadline", func(seat int) error { return tx.ClearDeadline(ctx, id, seat) }},
		} {
			for _, seat := range []int{1, 1, 0} {
				_, err = tx.Seats(ctx, id)
				must(err)
				must(w.write(seat))
				if n := statements(func() { seats, err = tx.Seats(ctx, id) }); n != 0 || err != nil {
					t.Errorf("the seats after %s for seat %d: %d statements, %v; want none", w.name, seat, n, err)
				}
				stored, err := tx.reader.Seats(ctx, id)
				must(err)
				if !reflect.DeepEqual(seats, stored) {
					t.Errorf("the seats kept after %s for seat %d:\n%+v\nthe database's:\n%+v", w.name, seat, seats, stored)
				}
			}
		}
		must(tx.SetDeadline(ctx, id, 0, deadline)) // as the rest of the test wants it

		// Players: those of the seats read at once serve Player, and a
		// write to players is seen.
		_, err = tx.SeatedPlayers(ctx, id)
		must(err)
		var p Player
		if n := statements(func() { p, err = tx.Player(ctx, "Ann@Example.org") }); n != 0 || err != nil || p.Address != ann {
			t.Errorf("a seated player: %d statements, %s, %v; want none and %s", n, p.Address, err, ann)
		}
		must(tx.SetPlayerQuiet(ctx, ann, 23, 7))
		if p, err = tx.Player(ctx, ann); err != nil || p.QuietStart != 23 || p.QuietEnd != 7 {
			t.Errorf("after quiet 23-7: %d-%d, %v", p.QuietStart, p.QuietEnd, err)
		}
		// A seated player not kept is read with the game's others, in one
		// statement; after it the others, every seat's player and their
		// vacations are read from what it kept, and match the database.
		// A write of players the memo does not place forgets them all
		// (the setters keep what they write: TestPlayerKeptAsWritten).
		_, err = tx.exec(ctx, `UPDATE players SET quiet_start = 21, quiet_end = 6 WHERE address = ?`, bob)
		must(err)
		if n := statements(func() { p, err = tx.Player(ctx, bob) }); n != 1 || err != nil || p.QuietStart != 21 {
			t.Errorf("a seated player not kept: %d statements, quiet from %d, %v; want 1 and 21", n, p.QuietStart, err)
		}
		var ps map[string]Player
		var away time.Time
		if n := statements(func() {
			if _, err = tx.Player(ctx, ann); err == nil {
				if ps, err = tx.SeatedPlayers(ctx, id); err == nil {
					away, err = tx.AwayUntil(ctx, bob)
				}
			}
		}); n != 0 || err != nil || len(ps) != 2 || !away.IsZero() {
			t.Errorf("the other seated player, every seat's and a vacation after one: %d statements, %d players, away until %v, %v; want none, 2 and none",
				n, len(ps), away, err)
		}
		stored, err := tx.reader.SeatedPlayers(ctx, id)
		must(err)
		if !reflect.DeepEqual(ps, stored) {
			t.Errorf("the seated players kept:\n%+v\nthe database's:\n%+v", ps, stored)
		}
		// A vacation, which writes the player's row, is seen.
		start := deadline.Add(-24 * time.Hour)
		_, err = tx.StartVacation(ctx, bob, start, deadline)
		must(err)
		if away, err = tx.AwayUntil(ctx, bob); err != nil || !away.Equal(deadline) {
			t.Errorf("away after a vacation until %v: %v, %v", deadline, away, err)
		}
		if want, err := tx.reader.AwayUntil(ctx, bob); err != nil || !away.Equal(want) {
			t.Errorf("away as the transaction keeps it %v, as the database has it %v, %v", away, want, err)
		}
		// A player seated nowhere the transaction keeps is read alone, and
		// one unknown is not found.
		if _, err := tx.AwayUntil(ctx, "nobody@example.org"); !errors.Is(err, ErrNotFound) {
			t.Errorf("away of an unknown player: %v, want ErrNotFound", err)
		}

		// Whose address an address is, as Reachable read it, until an
		// alias is added.
		alias := "ann.work@example.org"
		for _, c := range []struct {
			name, address, want string
			statements          int64
		}{
			{"an address of its own, after Reachable", alias, alias, 0},
			{"after the alias was added", alias, ann, 1},
			{"after Reachable again", alias, ann, 0},
		} {
			switch c.name {
			case "an address of its own, after Reachable", "after Reachable again":
				_, err := tx.Reachable(ctx, strings.ToUpper(c.address))
				must(err)
			case "after the alias was added":
				must(tx.AddAlias(ctx, Alias{Alias: alias, Address: ann, AliasMailbox: alias, Mailbox: ann}))
			}
			var got string
			if n := statements(func() { got, err = tx.PlayerOf(ctx, c.address) }); n != c.statements || err != nil || got != c.want {
				t.Errorf("PlayerOf %s: %d statements, %q, %v; want %d and %q", c.name, n, got, err, c.statements, c.want)
			}
		}

		// A mailbox's budget key, once looked up, until an alias is
		// added.
		carl := "carl@example.org"
		for i, want := range []int64{1, 0} {
			var key string
			if n := statements(func() { key, err = tx.budgetKey(ctx, carl) }); n != want || err != nil || key != carl {
				t.Errorf("budget key, look-up %d: %d statements, %q, %v; want %d and %q", i+1, n, key, err, want, carl)
			}
		}
		must(tx.AddAlias(ctx, Alias{Alias: carl, Address: ann, AliasMailbox: carl, Mailbox: ann}))
		if key, err := tx.budgetKey(ctx, carl); err != nil || key != ann {
			t.Errorf("budget key after the alias was added: %q, %v; want %q", key, err, ann)
		}

		// A savepoint rolled back takes what was kept of its writes
		// with it.
		undo := errors.New("undo")
		err = tx.Savepoint(ctx, func() error {
			must(tx.ClearDeadline(ctx, id, 0))
			if seats, err := tx.Seats(ctx, id); err != nil || !seats[0].Deadline.IsZero() {
				t.Errorf("in the savepoint, after the deadline was cleared: %v, %v", seats[0].Deadline, err)
			}
			return undo
		})
		if !errors.Is(err, undo) {
			t.Fatalf("savepoint: %v", err)
		}
		if seats, err = tx.Seats(ctx, id); err != nil || !seats[0].Deadline.Equal(deadline) {
			t.Errorf("after the savepoint was rolled back: seat 0's deadline %v, %v; want %v again", seats[0].Deadline, err, deadline)
		}
		return nil
	})

	// A new transaction keeps nothing of the last one's.
	mustTx(t, s, func(tx *Tx) error {
		if n := statements(func() { _, _ = tx.Game(ctx, id) }); n != 1 {
			t.Errorf("a new transaction's first read of the game: %d statements, want 1", n)
		}
		return nil
	})
}

// TestSeatByTokenKeepsSeats checks that a seat read by its token comes
// with its game's other seats, which the transaction then keeps (one
// statement, and none for Seats after it), as the database has them;
// that a token no seat has is not found; and that on PostgreSQL a
// game's transaction keeps no other game's seats.
func TestSeatByTokenKeepsSeats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	other := newGame(t, s, "dan@example.org", "eve@example.org")
	var tokens []string
	for _, g := range []int64{id, other} {
		ss, err := s.Seats(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, ss[1].Token)
	}
	statements := func(fn func() error) (int64, error) {
		start := s.Counts().Statements
		err := fn()
		return s.Counts().Statements - start, err
	}
	mustTx(t, s, func(tx *Tx) error {
		var seat Seat
		n, err := statements(func() (err error) { seat, err = tx.SeatByToken(ctx, strings.ToUpper(tokens[0])); return err })
		if err != nil || n != 1 || seat.GameID != id || seat.Seat != 1 {
			t.Errorf("a seat by its token: %d statements, game %d seat %d, %v; want 1, game %d seat 1", n, seat.GameID, seat.Seat, err, id)
		}
		var seats []Seat
		if n, err := statements(func() (err error) { seats, err = tx.Seats(ctx, id); return err }); err != nil || n != 0 {
			t.Errorf("its game's seats after it: %d statements, %v; want none", n, err)
		}
		stored, err := tx.reader.Seats(ctx, id)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(seats, stored) || len(seats) != 3 {
			t.Errorf("the seats kept:\n%+v\nthe database's:\n%+v", seats, stored)
		}
		if _, err := tx.SeatByToken(ctx, "no-such-token"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a token no seat has: %v, want ErrNotFound", err)
		}
		return nil
	})
	if err := s.GameTx(ctx, id, func(tx *Tx) error {
		seat, err := tx.SeatByToken(ctx, tokens[1])
		if err != nil || seat.GameID != other {
			t.Errorf("another game's seat in a game's transaction: game %d, %v; want %d", seat.GameID, err, other)
		}
		want := int64(0)
		if s.Engine() == PostgreSQL {
			want = 1 // not kept: another transaction may write them
		}
		if n, err := statements(func() error { _, err := tx.Seats(ctx, other); return err }); err != nil || n != want {
			t.Errorf("the other game's seats after its seat: %d statements, %v; want %d", n, err, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestPlayerKeptAsWritten checks that every write of a player's columns
// leaves the player the transaction keeps as the database has him, read
// without a statement, and that the write itself waits for the next
// statement on PostgreSQL: each setter in turn, twice (the second from
// what the first left), then a player the transaction does not keep,
// which is written at once and must exist.
func TestPlayerKeptAsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ann, bob := "ann@example.org", "bob@example.org"
	newGame(t, s, ann, bob)
	statements := func(fn func()) int64 {
		start := s.Counts().Statements
		fn()
		return s.Counts().Statements - start
	}
	due := time.Unix(1_800_000_123, 0)
	var vacation Vacation
	mustTx(t, s, func(tx *Tx) error {
		for i, w := range []struct {
			name  string
			write func(round int) error
		}{
			{"name", func(r int) error { return tx.SetPlayerName(ctx, ann, fmt.Sprintf(" Ann %d ", r)) }},
			{"time zone", func(r int) error { return tx.SetPlayerTimeZone(ctx, ann, []string{"Europe/Berlin", "Asia/Tokyo"}[r]) }},
			{"notify", func(r int) error { return tx.SetPlayerNotify(ctx, ann, []Notify{NotifyDigest, NotifyTurns}[r]) }},
			{"digest", func(r int) error { return tx.SetPlayerDigest(ctx, ann, 7+r, due.Add(time.Duration(r)*time.Hour)) }},
			{"confirm", func(r int) error { return tx.SetPlayerConfirm(ctx, ann, r == 0) }},
			{"language", func(r int) error { return tx.SetPlayerLanguage(ctx, ann, []string{"de", "en"}[r]) }},
			{"quiet hours", func(r int) error { return tx.SetPlayerQuiet(ctx, ann, 22+r, 7-r) }},
			{"zone guess", func(r int) error { return tx.SetPlayerZoneGuess(ctx, ann, []string{"Europe/Paris", ""}[r]) }},
			{"zone asked", func(int) error { return tx.SetPlayerZoneAsked(ctx, ann) }},
			{"vacation", func(r int) (err error) {
				if r == 0 {
					vacation, err = tx.StartVacation(ctx, ann, t0, t0.Add(72*time.Hour))
					return err
				}
				return tx.ExtendVacation(ctx, vacation, t0.Add(96*time.Hour))
			}},
			{"vacation's end", func(int) error { return tx.EndVacation(ctx, vacation, t0.Add(time.Hour)) }},
		} {
			for round := range 2 {
				if _, err := tx.Player(ctx, ann); err != nil { // kept from here
					return err
				}
				if err := w.write(round); err != nil {
					return fmt.Errorf("%s: %w", w.name, err)
				}
				var kept Player
				var err error
				if n := statements(func() { kept, err = tx.Player(ctx, ann) }); n != 0 || err != nil {
					t.Errorf("%s, round %d: the player read again in %d statements, %v; want none", w.name, round, n, err)
				}
				stored, err := tx.reader.Player(ctx, ann)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(kept, stored) {
					t.Errorf("%s (%d), round %d: the player kept\n%+v\nthe database's\n%+v", w.name, i, round, kept, stored)
				}
			}
		}
		// Bob is not kept: his write runs at once, and one of a player
		// who does not exist fails.
		if err := tx.SetPlayerZoneAsked(ctx, bob); err != nil {
			return err
		}
		if p, err := tx.reader.Player(ctx, bob); err != nil || !p.ZoneAsked {
			t.Errorf("bob after his zone was asked: %+v, %v", p, err)
		}
		if err := tx.SetPlayerZoneAsked(ctx, "nobody@example.org"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a player who does not exist asked his zone: %v, want ErrNotFound", err)
		}
		return nil
	})
}

// TestSeatKeptAsWritten: a write of one of a seat's columns (setSeat)
// whose row the transaction keeps keeps it as written, and needs no
// answer, where it made the transaction forget the game's seats, and on
// PostgreSQL waited for its count of rows: a join that starts a game
// wrote its state, then each seat's last event and thread, every write a
// round trip (issue 40). The kept row is the database's; a seat the
// transaction has not read is written at once, and one that does not
// exist fails.
func TestSeatKeptAsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	statements := func(fn func()) int64 {
		start := s.Counts().Statements
		fn()
		return s.Counts().Statements - start
	}
	mustTx(t, s, func(tx *Tx) error {
		for _, w := range []struct {
			name  string
			write func(round int) error
		}{
			{"joined", func(r int) error {
				if r == 0 {
					return tx.SetSeatJoined(ctx, g, 1)
				}
				return tx.SetSeatDeclined(ctx, g, 1)
			}},
			{"resigned", func(int) error { return tx.SetSeatResigned(ctx, g, 1) }},
			{"missed", func(r int) error { return tx.SetSeatMissed(ctx, g, 1, 2+r) }},
			{"bank", func(r int) error {
				return tx.SetSeatBank(ctx, g, 1, time.Duration(r+1)*time.Hour+1500*time.Millisecond)
			}},
			{"bot", func(r int) error { return tx.SetSeatBot(ctx, g, 1, []string{"easy", ""}[r]) }},
			{"autopilot", func(r int) error { return tx.SetSeatAutopilot(ctx, g, 1, r == 0) }},
			{"notify", func(r int) error { return tx.SetSeatNotify(ctx, g, 1, []Notify{NotifyTurns, ""}[r]) }},
			{"name", func(r int) error { return tx.SetSeatName(ctx, g, 1, []string{"Bobby", "Rob"}[r]) }},
		} {
			for round := range 2 {
				if _, err := tx.Seats(ctx, g); err != nil { // kept from here
					return err
				}
				if err := w.write(round); err != nil {
					return fmt.Errorf("%s: %w", w.name, err)
				}
				var kept []Seat
				var err error
				if n := statements(func() { kept, err = tx.Seats(ctx, g) }); n != 0 || err != nil {
					t.Errorf("%s, round %d: the seats read again in %d statements, %v; want none", w.name, round, n, err)
				}
				stored, err := tx.reader.Seats(ctx, g)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(kept, stored) {
					t.Errorf("%s, round %d: the seats kept\n%+v\nthe database's\n%+v", w.name, round, kept, stored)
				}
			}
		}
		return nil
	})
	mustTx(t, s, func(tx *Tx) error {
		// Not kept: written at once; a seat that does not exist fails.
		if err := tx.SetSeatMissed(ctx, g, 0, 1); err != nil {
			return err
		}
		if err := tx.SetSeatMissed(ctx, g, 9, 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("a seat that does not exist: %v, want ErrNotFound", err)
		}
		return nil
	})
}
