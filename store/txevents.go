package store

import (
	"cmp"
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// This file is what a transaction on PostgreSQL keeps of a game's event
// log (issue 40). A move's mails tell the events since each seat's last
// mail, and those events were read back after the move wrote them: a
// round trip of every move, after its writes and before its mails. Now
// the round trip that reads the game's row and seats under its lock
// (ReceiveKeeping, lockAndKeep) also reads the events that any seat pbem
// mails has not been mailed yet, and reserves ids for the events the
// transaction will append; AppendEvents writes them with those ids and
// keeps them; Events answers from what is kept when it holds the events
// asked for. Nobody else appends to a game's log while the transaction
// holds the game (gamelock.go), so the kept log is the log.
//
// SQLite keeps nothing of it: a read there is a call, not a round trip.

// keptEvents is a game's event log from after on, as the transaction
// read and wrote it, and the ids it reserved for the events it appends.
type keptEvents struct {
	after int64   // rows holds every event of the game with an id above after
	rows  []Event // in the order of their ids
	ids   []int64 // reserved by reserveEventIDsSQL, unused, rising
}

// since is what Events(game, sinceID) reads, for a sinceID at or above
// after: a copy, nil for none.
func (k *keptEvents) since(sinceID int64) []Event {
	i := sort.Search(len(k.rows), func(i int) bool { return k.rows[i].ID > sinceID })
	if i == len(k.rows) {
		return nil
	}
	return slices.Clone(k.rows[i:])
}

// eventIDReserve is how many event ids the round trip that reads a game
// reserves for the events the transaction appends: more than a move of
// either game appends, a round's end included. Unused ids are left as
// gaps, which nothing reads. A transaction that appends more writes
// the rest with the ids the table gives, and reads its log again. It is
// also the step of the events' id sequence on PostgreSQL (migration 35),
// so that one id taken from it is the first of a block of that many
// that no other transaction is given.
const eventIDReserve = 16

// keptEventsSQL reads the events of a game that a seat pbem mails has
// not been mailed (its last_mailed_event): each seat's but a bot's,
// which reads no mail, and a resigned player's, who hears only the end.
// The bound, after, is in every row, and the one row of a log with
// nothing after it has no event (a LEFT JOIN): the transaction keeps
// what it was read from. A game whose seats are all bots or resigned
// keeps its log from its last event on. The last row, whose after is
// NULL, is the first of the ids reserveEventIDsSQL reserves: one
// statement, where two cost the server and pgx a statement's work more
// on every mail (docs/profiles.md, nineteenth sitting). keepEvents puts
// the rows in the order of their ids.
const keptEventsSQL = `SELECT b.after, e.id, e.seq, e.to_seat, e.kind, e.text, e.say
	FROM (SELECT coalesce(
		(SELECT min(last_mailed_event) FROM seats WHERE game_id = ? AND bot = '' AND state <> 'resigned'),
		(SELECT max(id) FROM events WHERE game_id = ?),
		0) AS after) AS b
	LEFT JOIN events e ON e.game_id = ? AND e.id > b.after
	UNION ALL ` + reserveEventIDsSQL

// reserveEventIDsSQL takes eventIDReserve ids from the events' id
// sequence, in a row of keptEventsSQL: one value of the sequence, whose
// step is eventIDReserve (migration 35), and the ids after it up to the
// next value, which no other transaction is given. Taken after the
// game's lock, in its round trip, they are above the id of every event
// of the game, and below those of any transaction that takes the game
// after this one. An insert that leaves the id to the table takes a
// whole block for one event: the gaps, like those of ids reserved and
// not used, are read by nothing.
//
// The sequence is looked up once, in a sub-select the server runs
// before the row (an InitPlan), and named as a regclass there: called
// for each id, the look-up and the name's parse were most of the
// statement's 119 µs (docs/profiles.md, nineteenth sitting); then sixteen
// rows, a value of the sequence each, were a fifth of what was left, 10
// µs of the server's 42–52 (twentieth sitting).
// TestEventIDSequenceStepsByReserve checks the sequence's step.
const reserveEventIDsSQL = `SELECT NULL, nextval((SELECT pg_get_serial_sequence('events', 'id')::regclass)), NULL, NULL, NULL, NULL, NULL`

// eventQueries appends to batch the read of the event log of game id
// and its reserved ids, which keepEvents keeps.
func (tx *Tx) eventQueries(p *pgTx, batch []batchQuery, id int64) []batchQuery {
	args := []any{id, id, id}
	tx.m.query(keptEventsSQL, args)
	return append(batch, batchQuery{p.rb.rebind(keptEventsSQL), args})
}

// keepEvents keeps the event log of game id and its reserved ids, as
// read by eventQueries. It reads the buffered values themselves, not
// through database/sql: the sixteen rows of reserved ids the read then
// had made scanning it, seven columns a row, 16–19 µs of every mail
// about a game (BenchmarkKeepEvents).
func (tx *Tx) keepEvents(id int64, log *bufferedRows) error {
	if log.err != nil {
		return fmt.Errorf("read the events: %w", wrap(log.err))
	}
	k := &keptEvents{ids: make([]int64, 0, eventIDReserve)}
	for _, r := range log.rows {
		if len(r) != 7 {
			return fmt.Errorf("read the events: %d columns, want 7", len(r))
		}
		after, bound := r[0].(int64)
		eid, event := r[1].(int64)
		switch {
		case !bound && event:
			if len(k.ids) > 0 {
				return fmt.Errorf("read the events: two rows of reserved ids")
			}
			for i := range int64(eventIDReserve) {
				k.ids = append(k.ids, eid+i) // the block the sequence's value begins
			}
			continue
		case !bound:
			return fmt.Errorf("read the events: a row of neither an event nor a reserved id: %v", r)
		case r[1] == nil:
			k.after = after // the bound alone: no event after it
			continue
		case !event:
			return fmt.Errorf("read the events: event id %T", r[1])
		}
		k.after = after
		seq, _ := r[2].(int64)
		to, _ := r[3].(int64)
		k.rows = append(k.rows, Event{ID: eid, Seq: seq, To: int(to), Kind: bufferedText(r[4]), Text: bufferedText(r[5]), Say: bufferedText(r[6])})
	}
	if len(k.ids) != eventIDReserve {
		return fmt.Errorf("read the events: %d event ids reserved, want %d", len(k.ids), eventIDReserve)
	}
	slices.SortFunc(k.rows, func(a, b Event) int { return cmp.Compare(a.ID, b.ID) })
	slices.Sort(k.ids)
	put(&tx.memo.events, id, k)
	return nil
}

// bufferedText is a buffered value of a text column: "" for NULL.
func bufferedText(v driver.Value) string {
	switch t := v.(type) {
	case string:
		return t
	case []byte:
		return string(t)
	}
	return ""
}

// Events is reader.Events, from the event log the transaction keeps
// when it holds the events asked for.
func (tx *Tx) Events(ctx context.Context, gameID, sinceID int64) ([]Event, error) {
	if evs, ok := tx.keptEventsSince(gameID, sinceID); ok {
		return evs, nil
	}
	return tx.reader.Events(ctx, gameID, sinceID)
}

// keptEventsSince is what Events reads, from the kept log of the game,
// and whether the transaction keeps the events asked for.
func (tx *Tx) keptEventsSince(gameID, sinceID int64) ([]Event, bool) {
	k, ok := tx.memo.events[gameID]
	if !ok || sinceID < k.after {
		return nil, false
	}
	return k.since(sinceID), true
}

// appendKept is AppendEvents for a game whose log the transaction keeps
// with ids enough reserved: it writes the events with those ids and keeps
// them. It reports false, having written nothing, when it cannot.
func (tx *Tx) appendKept(ctx context.Context, gameID, seq int64, events []Event) (bool, error) {
	k, ok := tx.memo.events[gameID]
	if !ok || len(k.ids) < len(events) {
		return false, nil
	}
	ids := k.ids[:len(events)]
	for start := 0; start < len(events); start += maxEventRows {
		part := events[start:min(start+maxEventRows, len(events))]
		args := make([]any, 0, 7*len(part))
		for i, e := range part {
			args = append(args, ids[start+i], gameID, seq, e.To, e.Kind, e.Text, nullText(e.Say))
		}
		// The memo is not told of the insert (tables nil): it keeps
		// the log itself, below, and no other table is written.
		if err := tx.laterInto(ctx, "append events", insertKeptEventsSQL[len(part)-1], nil, args...); err != nil {
			return true, fmt.Errorf("store: append event to game %d: %w", gameID, err)
		}
	}
	k.ids = k.ids[len(events):]
	for i, e := range events {
		e.ID, e.Seq = ids[i], seq
		k.rows = append(k.rows, e)
	}
	return true, nil
}

// insertKeptEventsSQL holds the INSERT of n events with their ids at
// n-1, as insertEventsSQL.
var insertKeptEventsSQL = func() (qs [maxEventRows]string) {
	for n := range qs {
		qs[n] = `INSERT INTO events (id, game_id, seq, to_seat, kind, text, say) VALUES (?, ?, ?, ?, ?, ?, ?)` +
			strings.Repeat(`, (?, ?, ?, ?, ?, ?, ?)`, n)
	}
	return qs
}()
