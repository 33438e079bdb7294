package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Sources of moves, besides SourceAdmin.
const (
	SourceMail     = "mail"     // the seat's player, by mail
	SourceDeadline = "deadline" // the service's default move when a deadline passed
)

// SourceAdmin is the source of a move an admin made for a player.
func SourceAdmin(who string) string { return "admin:" + who }

func validSource(s string) bool {
	return s == SourceMail || s == SourceDeadline || (strings.HasPrefix(s, "admin:") && len(s) > len("admin:"))
}

// Move is one command of a game's log.
type Move struct {
	Seq       int64 // from 1; assigned by AppendMove
	Seat      int
	Command   string // canonical text
	Source    string // SourceMail, SourceDeadline or SourceAdmin(who)
	InboundID int64  // the inbound message that carried it; 0 for none
	At        time.Time
	// ClockLeft is the mover's time bank when his decision ended with
	// this move, before the move's increment (SetMoveClock); HasClock
	// says whether it was recorded (a game with a bank, a move that
	// ended a decision).
	ClockLeft time.Duration
	HasClock  bool
}

// AppendMove appends a command to the game's log and returns its sequence
// number, one more than the last. Inside the IMMEDIATE transaction no other
// writer can interleave, and the primary key (game_id, seq) would refuse a
// duplicate anyway. On PostgreSQL the insert of a move of a game the
// transaction keeps goes with its next statement (Tx.later): a move the
// server refuses (no such seat or inbound mail) fails that statement,
// and the transaction, rather than AppendMove.
func (tx *Tx) AppendMove(ctx context.Context, gameID int64, m Move) (int64, error) {
	if err := tx.writesGame(gameID); err != nil {
		return 0, err
	}
	if m.Command == "" || !validSource(m.Source) {
		return 0, fmt.Errorf("store: append move to game %d: empty command or invalid source %q", gameID, m.Source)
	}
	var seq int64
	kept, known := tx.memo.games[gameID]
	// The game's row, as the transaction keeps it, has its last move
	// changed (keepingGame).
	err := tx.keepingGame(gameID, func(g *Game) { g.LastSeq = seq }, func() error {
		if known {
			// The kept row has the number of the game's last move, and
			// nothing but this transaction appends to its log (one
			// writer on SQLite, the game's lock on PostgreSQL): the
			// number is known, and the insert, of one row or an error,
			// needs no answer (Tx.later): on PostgreSQL it goes with the
			// next statement, where it was a round trip of every move.
			seq = kept.LastSeq + 1
			return tx.later(ctx, "append a move", `
			INSERT INTO moves (game_id, seq, seat, command, source, inbound_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				gameID, seq, m.Seat, m.Command, m.Source, nullID(m.InboundID), unix(m.At))
		}
		return tx.q.QueryRowContext(ctx, `
		INSERT INTO moves (game_id, seq, seat, command, source, inbound_id, at)
		SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6 FROM moves WHERE game_id = ?1
		RETURNING seq`,
			gameID, m.Seat, m.Command, m.Source, nullID(m.InboundID), unix(m.At),
		).Scan(&seq)
	})
	if err != nil {
		return 0, fmt.Errorf("store: append move to game %d: %w", gameID, wrap(err))
	}
	return seq, nil
}

// SetMoveCommand rewrites the text of one move, for a player's rename:
// "give bob" becomes "give robert". The command stays the same move.
func (tx *Tx) SetMoveCommand(ctx context.Context, gameID, seq int64, command string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if command == "" {
		return fmt.Errorf("store: set move %d of game %d: empty command", seq, gameID)
	}
	if err := tx.execOne(ctx, `UPDATE moves SET command = ? WHERE game_id = ? AND seq = ?`, command, gameID, seq); err != nil {
		return fmt.Errorf("store: set move %d of game %d: %w", seq, gameID, err)
	}
	return nil
}

// Moves returns the moves of a game after seq afterSeq, in order; afterSeq
// 0 returns the whole log. To rebuild a game from its snapshot, pass the
// snapshot's seq.
func (r reader) Moves(ctx context.Context, gameID, afterSeq int64) ([]Move, error) {
	rows, err := r.q.QueryContext(ctx, `
		SELECT seq, seat, command, source, inbound_id, at, clock_left FROM moves
		WHERE game_id = ? AND seq > ? ORDER BY seq`, gameID, afterSeq)
	if err != nil {
		return nil, fmt.Errorf("store: moves of game %d: %w", gameID, wrap(err))
	}
	defer rows.Close()
	var ms []Move
	for rows.Next() {
		var m Move
		var inbound, clock sql.NullInt64
		var at int64
		if err := rows.Scan(&m.Seq, &m.Seat, &m.Command, &m.Source, &inbound, &at, &clock); err != nil {
			return nil, fmt.Errorf("store: moves of game %d: %w", gameID, err)
		}
		m.ClockLeft, m.HasClock = time.Duration(clock.Int64)*time.Second, clock.Valid
		m.InboundID = inbound.Int64
		m.At = fromUnix(at)
		ms = append(ms, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: moves of game %d: %w", gameID, err)
	}
	return ms, nil
}

// SetMoveClock records on the move seq of the game's log its player's
// time bank when that move ended his decision (Move.ClockLeft). It
// reports whether the move is there to record it on.
func (tx *Tx) SetMoveClock(ctx context.Context, gameID, seq int64, left time.Duration) (bool, error) {
	if err := tx.writesGame(gameID); err != nil {
		return false, err
	}
	if left < 0 {
		left = 0
	}
	res, err := tx.exec(ctx, `UPDATE moves SET clock_left = ? WHERE game_id = ? AND seq = ?`, seconds(left), gameID, seq)
	if err != nil {
		return false, fmt.Errorf("store: clock of move %d of game %d: %w", seq, gameID, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Public addresses an event to every seat.
const Public = -1

// Event is one entry of a game's event log: what happened, as told.
type Event struct {
	ID   int64 // assigned by AppendEvents; increasing
	Seq  int64 // the move that caused it; 0 for none
	To   int   // Public, the only seat that may see it, or -2-N: every seat but N
	Kind string
	Text string
	// Say is the event's words as a phrase for each reader's language,
	// JSON (engine.Phrase, which the store does not read); "" for none,
	// and Text is read instead.
	Say string
}

// nullText stores "" as NULL, for optional text.
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// AppendEvents appends events caused by move seq (0: by no move, such as
// the opening or an admin's act) to the game's event log, in order. The
// ids rise in that order (each engine inserts a VALUES list in its
// order), which is the order Events reads them in. Nothing waits for the
// inserts (Tx.later): on PostgreSQL they go with the transaction's next
// statement, which for a move is the read of the events its mails tell
// (issue 40: the insert returned the ids, which nothing used, in a round
// trip of every move).
func (tx *Tx) AppendEvents(ctx context.Context, gameID, seq int64, events []Event) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if kept, err := tx.appendKept(ctx, gameID, seq, events); kept || err != nil {
		return err
	}
	for len(events) > 0 {
		n := min(len(events), maxEventRows)
		args := make([]any, 0, 6*n)
		for _, e := range events[:n] {
			args = append(args, gameID, seq, e.To, e.Kind, e.Text, nullText(e.Say))
		}
		if err := tx.later(ctx, "append events", insertEventsSQL[n-1], args...); err != nil {
			return fmt.Errorf("store: append event to game %d: %w", gameID, err)
		}
		events = events[n:]
	}
	return nil
}

// maxEventRows is how many events one INSERT writes: a move's events
// mostly fit in one (issue 40), and the statement texts, one per number
// of rows, stay few, each prepared once.
const maxEventRows = 8

// insertEventsSQL holds the INSERT of n events at n-1. They are built
// once, from constants, and never change.
var insertEventsSQL = func() (qs [maxEventRows]string) {
	for n := range qs {
		qs[n] = `INSERT INTO events (game_id, seq, to_seat, kind, text, say) VALUES (?, ?, ?, ?, ?, ?)` +
			strings.Repeat(`, (?, ?, ?, ?, ?, ?)`, n)
	}
	return qs
}()

// Events returns the game's events with an id above sinceID, in order;
// sinceID 0 returns them all. Events of every seat are returned: the caller
// filters by To.
func (r reader) Events(ctx context.Context, gameID, sinceID int64) ([]Event, error) {
	rows, err := r.q.QueryContext(ctx, eventsSQL, gameID, sinceID)
	return scanEvents(gameID, rows, err)
}

// eventsSQL reads a game's events after an id (Events). The id is a
// sub-select, whose value the planner does not see: on PostgreSQL a
// custom plan, made for the values bound, always looked cheaper than the
// statement's generic plan, so the statement was planned again on every
// run (issue 40: 1,200 plans of 2,700 runs in a load of 32 games, 80 ms
// of the server's time). Both plans read the game's events by
// events_game; on SQLite the sub-select is a constant, read once.
const eventsSQL = `
		SELECT id, seq, to_seat, kind, text, say FROM events
		WHERE game_id = ? AND id > (SELECT CAST(? AS BIGINT)) ORDER BY id`

// scanEvents collects the rows of eventsSQL of game gameID.
func scanEvents(gameID int64, rows *sql.Rows, err error) ([]Event, error) {
	if err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", gameID, wrap(err))
	}
	defer rows.Close()
	var es []Event
	for rows.Next() {
		var e Event
		var say sql.NullString
		if err := rows.Scan(&e.ID, &e.Seq, &e.To, &e.Kind, &e.Text, &say); err != nil {
			return nil, fmt.Errorf("store: events of game %d: %w", gameID, err)
		}
		e.Say = say.String
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", gameID, err)
	}
	return es, nil
}

// AuditEntry is one act recorded in the audit log.
type AuditEntry struct {
	ID     int64
	GameID int64 // 0 for acts concerning no game
	Actor  string
	Action string // the text of an admin.Word: "extend", "move", "replace", "pause", "resume", "abort", "retry"
	Detail string
	At     time.Time
}

// AppendAudit records an act of an admin (or of the service on its own
// authority) and returns its id. gameID 0 is for acts concerning no game.
func (tx *Tx) AppendAudit(ctx context.Context, gameID int64, actor, action, detail string, at time.Time) (int64, error) {
	if actor == "" || action == "" {
		return 0, fmt.Errorf("store: append audit: actor and action are required")
	}
	var id int64
	err := tx.q.QueryRowContext(ctx, `
		INSERT INTO audit (game_id, actor, action, detail, at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
		nullID(gameID), actor, action, detail, unix(at),
	).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: append audit: %w", wrap(err))
	}
	return id, nil
}

// Audit returns the audit log of a game in order; gameID 0 returns the acts
// concerning no game.
func (r reader) Audit(ctx context.Context, gameID int64) ([]AuditEntry, error) {
	rows, err := r.q.QueryContext(ctx, `
		SELECT id, coalesce(game_id, 0), actor, action, detail, at FROM audit
		WHERE game_id IS NOT DISTINCT FROM ? ORDER BY id`, nullID(gameID))
	if err != nil {
		return nil, fmt.Errorf("store: audit of game %d: %w", gameID, wrap(err))
	}
	defer rows.Close()
	var as []AuditEntry
	for rows.Next() {
		var a AuditEntry
		var at int64
		if err := rows.Scan(&a.ID, &a.GameID, &a.Actor, &a.Action, &a.Detail, &at); err != nil {
			return nil, fmt.Errorf("store: audit of game %d: %w", gameID, err)
		}
		a.At = fromUnix(at)
		as = append(as, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: audit of game %d: %w", gameID, err)
	}
	return as, nil
}
