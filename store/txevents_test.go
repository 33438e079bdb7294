package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestEventsKeptUnderTheLock: a game's transaction reads its event log
// with its row (txevents.go), and Events answers from it, its own
// appends included, exactly as the table would, with the ids the table
// then holds: on PostgreSQL without a round trip. Asked for more than it
// holds, or after appending more than its ids reserved, it reads the
// table.
func TestEventsKeptUnderTheLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	pg := s.Engine() == PostgreSQL
	id := newGame(t, s, "ann@x.test", "bob@x.test", "cat@x.test")
	events := func(n int, tag string) []Event {
		var es []Event
		for i := range n {
			es = append(es, Event{To: i%2 - 1, Kind: "k", Text: fmt.Sprintf("%s %d", tag, i), Say: map[bool]string{true: `{"k":"s"}`}[i%3 == 0]})
		}
		return es
	}
	if err := s.GameTx(ctx, id, func(tx *Tx) error { return tx.AppendEvents(ctx, id, 1, events(5, "first")) }); err != nil {
		t.Fatal(err)
	}
	all, err := s.Events(ctx, id, 0)
	if err != nil || len(all) != 5 {
		t.Fatalf("the first events: %+v, %v", all, err)
	}
	// Ann was mailed the second event, Bob the fourth; Cat, a bot, none.
	mustTx(t, s, func(tx *Tx) error {
		return errors.Join(tx.SetSeatLastMailedEvent(ctx, id, 0, all[1].ID), tx.SetSeatLastMailedEvent(ctx, id, 1, all[3].ID),
			tx.SetSeatBot(ctx, id, 2, "easy"))
	})

	// tripsOf runs read and says how many round trips it took.
	tripsOf := func(read func() error) int64 {
		t.Helper()
		before := s.Counts().RoundTrips
		if err := read(); err != nil {
			t.Fatal(err)
		}
		return s.Counts().RoundTrips - before
	}
	var kept, appended []Event
	for round := range 2 { // the first time on a connection, pgx prepares
		var fromTable []Event
		err := s.GameTx(ctx, id, func(tx *Tx) error {
			for _, since := range []int64{all[1].ID, all[2].ID, all[4].ID} {
				var got []Event
				if n := tripsOf(func() (err error) { got, err = tx.Events(ctx, id, since); return err }); pg && round > 0 && n != 0 {
					t.Errorf("the events after %d took %d round trips, want none", since, n)
				}
				want, err := tx.reader.Events(ctx, id, since)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the events after %d: kept %+v, the table %+v", since, got, want)
				}
			}
			if err := tx.AppendEvents(ctx, id, int64(2+round), events(3, fmt.Sprintf("round %d", round))); err != nil {
				return err
			}
			var err error
			if n := tripsOf(func() error { kept, err = tx.Events(ctx, id, all[1].ID); return err }); pg && round > 0 && n != 0 {
				t.Errorf("the events after its own appends took %d round trips, want none", n)
			}
			// Before the seat's mail is noted: the bound stays.
			fromTable, err = tx.reader.Events(ctx, id, all[1].ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kept, fromTable) {
			t.Errorf("round %d: the events with its own, kept:\n%+v\nthe table:\n%+v", round, kept, fromTable)
		}
		appended = kept[len(kept)-3:]
		for i, e := range appended {
			if e.Text != fmt.Sprintf("round %d %d", round, i) || e.Seq != int64(2+round) || (i > 0 && e.ID <= appended[i-1].ID) {
				t.Errorf("round %d: appended %+v", round, appended)
			}
		}
		committed, err := s.Events(ctx, id, appended[0].ID-1)
		if err != nil || !reflect.DeepEqual(committed, appended) {
			t.Errorf("round %d: committed %+v, kept %+v (%v)", round, committed, appended, err)
		}
	}

	// Older than the bound (Ann's last mail): read from the table, and
	// the same.
	mustTx(t, s, func(tx *Tx) error { return tx.SetSeatLastMailedEvent(ctx, id, 0, all[3].ID) })
	err = s.GameTx(ctx, id, func(tx *Tx) error {
		got, err := tx.Events(ctx, id, all[0].ID)
		if err != nil {
			return err
		}
		if want, _ := s.Events(ctx, id, all[0].ID); !reflect.DeepEqual(got, want) || len(got) != 4+6 {
			t.Errorf("the events before the bound: %+v, want %+v", got, want)
		}
		// More events than ids reserved: the table's ids, read again.
		if err := tx.AppendEvents(ctx, id, 9, events(eventIDReserve+3, "many")); err != nil {
			return err
		}
		got, err = tx.Events(ctx, id, all[3].ID)
		if err != nil {
			return err
		}
		want, err := tx.reader.Events(ctx, id, all[3].ID)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) || len(got) != 1+6+eventIDReserve+3 {
			t.Errorf("after many events: %d events, the table %d", len(got), len(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// A savepoint rolled back takes its events with it, from the log
	// kept too.
	var last []Event
	err = s.GameTx(ctx, id, func(tx *Tx) error {
		before, err := tx.Events(ctx, id, all[3].ID)
		if err != nil {
			return err
		}
		errUndo := errors.New("undo")
		if err := tx.Savepoint(ctx, func() error {
			if err := tx.AppendEvents(ctx, id, 10, events(2, "undone")); err != nil {
				return err
			}
			return errUndo
		}); !errors.Is(err, errUndo) {
			return fmt.Errorf("the savepoint: %w", err)
		}
		if err := tx.AppendEvents(ctx, id, 11, events(1, "kept")); err != nil {
			return err
		}
		if last, err = tx.Events(ctx, id, all[3].ID); err != nil {
			return err
		}
		if len(last) != len(before)+1 || last[len(last)-1].Text != "kept 0" {
			t.Errorf("after a savepoint's rollback: %d events, last %+v; before it %d", len(last), last[len(last)-1], len(before))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if committed, err := s.Events(ctx, id, all[3].ID); err != nil || !reflect.DeepEqual(committed, last) {
		t.Errorf("committed after the rollback: %+v, kept %+v (%v)", committed, last, err)
	}
}

// TestEventsKeptWithAMailsRecord: a mail's record under Store.Tx
// (ReceiveKeeping) keeps its game's event log as a game's lock does,
// and a game whose seats no mail reaches keeps it from its last event.
func TestEventsKeptWithAMailsRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	pg := s.Engine() == PostgreSQL
	id := newGame(t, s, "ann@x.test", "bob@x.test")
	if err := s.GameTx(ctx, id, func(tx *Tx) error {
		return tx.AppendEvents(ctx, id, 1, []Event{{To: Public, Kind: "k", Text: "one"}, {To: 1, Kind: "k", Text: "two"}})
	}); err != nil {
		t.Fatal(err)
	}
	all, err := s.Events(ctx, id, 0)
	if err != nil || len(all) != 2 {
		t.Fatalf("%+v, %v", all, err)
	}
	mails := 0
	receive := func(tx *Tx) error {
		mails++
		in := Inbound{MessageID: fmt.Sprintf("<e%d@x.test>", mails), Mailbox: "INBOX", UIDValidity: 1, UID: uint32(mails),
			From: "ann@x.test", Outcome: "handling", ReceivedAt: t0}
		_, _, err := tx.ReceiveKeeping(ctx, in, Keeping{Game: id})
		return err
	}
	for round := range 2 { // the first time on a connection, pgx prepares
		mustTx(t, s, func(tx *Tx) error {
			if err := receive(tx); err != nil {
				return err
			}
			before := s.Counts().RoundTrips
			got, err := tx.Events(ctx, id, 0)
			if err != nil {
				return err
			}
			if n := s.Counts().RoundTrips - before; pg && round > 0 && n != 0 {
				t.Errorf("the events after a mail's record took %d round trips", n)
			}
			if !reflect.DeepEqual(got, all) {
				t.Errorf("kept %+v, want %+v", got, all)
			}
			return nil
		})
	}
	// Both seats bots: no seat is mailed, and the log is kept from the
	// game's last event, which its appends follow.
	mustTx(t, s, func(tx *Tx) error {
		return errors.Join(tx.SetSeatBot(ctx, id, 0, "easy"), tx.SetSeatBot(ctx, id, 1, "easy"))
	})
	mustTx(t, s, func(tx *Tx) error {
		if err := receive(tx); err != nil {
			return err
		}
		if k, ok := tx.memo.events[id]; pg && (!ok || k.after != all[1].ID || len(k.rows) != 0) {
			t.Errorf("a game of bots kept %+v (%v), want its log from event %d", k, ok, all[1].ID)
		}
		if err := tx.AppendEvents(ctx, id, 2, []Event{{To: Public, Kind: "k", Text: "three"}}); err != nil {
			return err
		}
		got, err := tx.Events(ctx, id, all[1].ID)
		if err != nil {
			return err
		}
		if want, err := tx.reader.Events(ctx, id, all[1].ID); err != nil || !reflect.DeepEqual(got, want) || len(got) != 1 {
			t.Errorf("a game of bots: kept %+v, the table %+v (%v)", got, want, err)
		}
		return nil
	})
}

// TestEventIDSequenceStepsByReserve: the reservation takes one value of
// the events' id sequence and counts on the eventIDReserve ids from it
// (txevents.go), which holds only while the sequence steps by as many
// (migration 35): else two transactions would be given the same ids.
// Going down, the sequence steps by one again, past the last block
// handed out, and up again by the block. SQLite reserves no ids, and
// its migration 35 leaves the events' table as it was, both ways.
func TestEventIDSequenceStepsByReserve(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	if s.Engine() != PostgreSQL {
		sqliteReservesNoEventIDs(ctx, t, s)
		return
	}
	step := func() (step, last int64) {
		t.Helper()
		err := s.r.QueryRowContext(ctx, `SELECT seqincrement,
			coalesce(pg_sequence_last_value(pg_get_serial_sequence('events', 'id')::regclass), 0)
			FROM pg_sequence WHERE seqrelid = pg_get_serial_sequence('events', 'id')::regclass`).Scan(&step, &last)
		if err != nil {
			t.Fatal(err)
		}
		return step, last
	}
	if got, _ := step(); got != eventIDReserve {
		t.Fatalf("the events' id sequence steps by %d, want eventIDReserve, %d", got, eventIDReserve)
	}
	id := newGame(t, s, "ann@x.test", "bob@x.test", "cat@x.test")
	var reserved []int64
	if err := s.GameTx(ctx, id, func(tx *Tx) error {
		reserved = slices.Clone(tx.memo.events[id].ids)
		return tx.AppendEvents(ctx, id, 1, []Event{{To: -1, Kind: "k", Text: "one"}})
	}); err != nil {
		t.Fatal(err)
	}
	if len(reserved) != eventIDReserve || reserved[eventIDReserve-1]-reserved[0] != eventIDReserve-1 {
		t.Fatalf("reserved %v, want a block of %d ids", reserved, eventIDReserve)
	}
	p, err := newProvider(s.be, s.w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 34); err != nil {
		t.Fatal(err)
	}
	got, last := step()
	if got != 1 || last < reserved[eventIDReserve-1] {
		t.Errorf("down to 34: the sequence steps by %d from %d, want 1 from the last reserved id, %d, or after", got, last, reserved[eventIDReserve-1])
	}
	if _, err := p.UpTo(ctx, 35); err != nil {
		t.Fatal(err)
	}
	if got, _ := step(); got != eventIDReserve {
		t.Errorf("up again: the sequence steps by %d, want %d", got, eventIDReserve)
	}
}

// sqliteReservesNoEventIDs is TestEventIDSequenceStepsByReserve on
// SQLite: a game's transaction reserves no event ids, an event appended
// takes the table's next id, and migration 35 changes nothing of the
// events' table going down or up.
func sqliteReservesNoEventIDs(ctx context.Context, t *testing.T, s *Store) {
	t.Helper()
	schema := func() string {
		t.Helper()
		var sql string
		if err := s.r.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'`).Scan(&sql); err != nil {
			t.Fatal(err)
		}
		return sql
	}
	before := schema()
	id := newGame(t, s, "ann@x.test", "bob@x.test", "cat@x.test")
	var reserved []int64
	if err := s.GameTx(ctx, id, func(tx *Tx) error {
		if k := tx.memo.events[id]; k != nil {
			reserved = slices.Clone(k.ids)
		}
		return tx.AppendEvents(ctx, id, 1, []Event{{To: -1, Kind: "k", Text: "one"}})
	}); err != nil {
		t.Fatal(err)
	}
	if len(reserved) != 0 {
		t.Fatalf("SQLite reserved event ids %v, want none", reserved)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE game_id = ? AND text = 'one'`, id).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the event appended: %d rows, %v; want 1", n, err)
	}
	p, err := newProvider(s.be, s.w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 34); err != nil {
		t.Fatal(err)
	}
	if got := schema(); got != before {
		t.Errorf("down to 34, the events' table is\n%s\nwant it as it was:\n%s", got, before)
	}
	if _, err := p.UpTo(ctx, 35); err != nil {
		t.Fatal(err)
	}
	if got := schema(); got != before {
		t.Errorf("up again, the events' table is\n%s\nwant it as it was:\n%s", got, before)
	}
}
