package daemon

import (
	"fmt"
	"sort"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// This file is what settle reads of a game once, rather than once per
// seat (issue 40): the seats as they are now, and the events since the
// oldest last mail of the seats it may mail. A seat's mail writes only
// its own seat's row and appends no event, so what one read holds is
// what each seat's own read would have found.

// seatsNow reads the game's seats as they are now, in the order of
// lg.Seats: their deadlines, decisions and threads as this transaction
// left them.
func (w *work) seatsNow(lg *loaded.Game) ([]store.Seat, error) {
	seats, err := w.tx.Seats(w.ctx, lg.Row.ID)
	if err != nil {
		return nil, err
	}
	if len(seats) != len(lg.Seats) {
		return nil, fmt.Errorf("daemon: game %d has %d seats, loaded with %d", lg.Row.ID, len(seats), len(lg.Seats))
	}
	for i := range seats {
		if seats[i].Seat != lg.Seats[i].Seat {
			return nil, fmt.Errorf("daemon: game %d: seat %d read as seat %d", lg.Row.ID, lg.Seats[i].Seat, seats[i].Seat)
		}
	}
	return seats, nil
}

// hearsOf reports whether settle may mail the seat st: not a bot's,
// which reads no mail, nor a resigned player's, who hears only the
// result (end) and his resignation's answer (he is the actor, with
// intro).
func hearsOf(st store.Seat, end bool, actor int, intro []string) bool {
	if st.Bot != "" {
		return false
	}
	return st.State != store.SeatResigned || end || (st.Seat == actor && len(intro) > 0)
}

// likelyMailed guesses, before the events are read, whether settle mails
// the seat, st now and before as the table was loaded, for a reason most
// notify settings want (wants): the game's start or end, or a new
// decision of the seat's. It only chooses whose mailboxes'
// answered state is read with the events: a seat it misses is asked
// when its mail is queued, and one it names in vain costs a row of the
// statement (issue 40: a move that waits for others mails none of them).
func likelyMailed(before, st store.Seat, kind templates.MailKind) bool {
	return kind != templates.MailTurn || (st.Decision != before.Decision && !st.Deadline.IsZero())
}

// settleReads reads, in a statement each, the events since the oldest
// last mailed event of the seats settle may mail (hearsOf), with whether
// their mailboxes answered pbem, and the seats' players; nothing if it
// mails none.
func (w *work) settleReads(lg *loaded.Game, seats []store.Seat, kind templates.MailKind, actor int, intro []string) ([]store.Event, map[string]store.Player, error) {
	end := kind == templates.MailEnd
	oldest, any := int64(0), false
	var boxes []string // the mailboxes the seats' mails are likely to go to
	for i, st := range seats {
		if !hearsOf(st, end, actor, intro) {
			continue
		}
		if !any || st.LastMailedEvent < oldest {
			oldest, any = st.LastMailedEvent, true
		}
		// The answer to his own mail is not limited, nor asked about a
		// mailbox the service knows answered.
		if likelyMailed(lg.Seats[i], st, kind) && st.Address != w.from && !w.post.KnownAnswered(st.Address) {
			boxes = append(boxes, w.post.MailboxOf(st.Address))
		}
	}
	if !any {
		return nil, nil, nil
	}
	// Whether each of those mailboxes answered pbem, which each mail's
	// limit asks (outgoing), is read with the events, unless the
	// service knows it did: on PostgreSQL in one round trip, and in
	// none when the transaction keeps the game's events (store's
	// txevents.go) and every mailbox is known.
	evs, err := w.tx.EventsKeepingAnswered(w.ctx, lg.Row.ID, oldest, boxes)
	if err != nil {
		return nil, nil, err
	}
	players, err := w.tx.SeatedPlayers(w.ctx, lg.Row.ID)
	if err != nil {
		return nil, nil, err
	}
	return evs, players, nil
}

// playerOf is the player at address: from players, the seats' players
// read once, or else from the store, whose error for a player it has
// not is what the caller would have met.
func (w *work) playerOf(players map[string]store.Player, address string) (store.Player, error) {
	if p, ok := players[address]; ok {
		return p, nil
	}
	return w.tx.Player(w.ctx, address)
}

// eventLog is the events settleReads read, each decoded into its engine
// form once, when the first seat's mail that may see it needs it, rather
// than once for each seat: a seat that is not mailed every turn has
// every event since its last mail decoded again on every command.
type eventLog struct {
	phrases *loaded.Phrases // the service's, which keeps them for later commands
	rows    []store.Event
	decoded []engine.Event
	done    []bool // done[i]: decoded[i] holds rows[i] decoded
}

func newEventLog(rows []store.Event, phrases *loaded.Phrases) *eventLog {
	return &eventLog{phrases: phrases, rows: rows, decoded: make([]engine.Event, len(rows)), done: make([]bool, len(rows))}
}

// since is what a seat's mail tells of the log: the events after the
// event last (eventsSince), and of them, in engine form, those seat may
// see (visible).
func (l *eventLog) since(last int64, seat int) ([]store.Event, []engine.Event) {
	evs := eventsSince(l.rows, last)
	from := len(l.rows) - len(evs)
	var seen []engine.Event
	for i := from; i < len(l.rows); i++ {
		if !sees(l.rows[i], seat) {
			continue
		}
		if !l.done[i] {
			l.decoded[i], l.done[i] = l.phrases.Event(l.rows[i]), true
		}
		seen = append(seen, l.decoded[i])
	}
	return evs, seen
}

// eventsSince is the part of evs, in the order of their ids as the store
// reads them, after the event last: what w.tx.Events(game, last) reads
// (nil for none, as it does).
func eventsSince(evs []store.Event, last int64) []store.Event {
	i := sort.Search(len(evs), func(i int) bool { return evs[i].ID > last })
	if i == len(evs) {
		return nil
	}
	return evs[i:]
}
