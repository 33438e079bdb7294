package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// This file is what a write transaction keeps of the rows it read most
// (issue 40): one command's transaction read its game's row three times,
// its seats four times and a player three times, each time the same,
// because nothing between the reads had written them. A Tx keeps what
// Game, Seats, Seat, Player and SeatedPlayers read, and forgets it when
// one of its own statements writes the table it came from (or may have:
// a statement it cannot place forgets everything), and when a savepoint
// is rolled back. Its read methods still see its own writes.
//
// Only the transaction's own writes can change these rows under it:
// SQLite runs one writer at a time; on PostgreSQL a Store.Tx holds pbem's
// lock exclusive, and a Store.GameTx holds its game's row, whose seats no
// other transaction writes (gamelock.go). A player's row may be written
// by another game's transaction that commits meanwhile; the kept row is
// then the one this transaction saw first, as if it had read it under
// REPEATABLE READ, which is what a transaction that reads a player once
// already does.

// txMemo is the rows a transaction read, until it writes their tables.
type txMemo struct {
	games   map[int64]Game
	seats   map[int64][]Seat
	players map[string]Player
	// playerOf holds whose address an address is (PlayerOf), as read
	// by Reachable.
	playerOf map[string]string
	// bounced holds whether an address has bounces Reachable would
	// forget, as Receive or Reachable read it.
	bounced map[string]bool
	// budgetKeys holds the budget key of each mailbox looked up
	// (budgetKey).
	budgetKeys map[string]string
	// received holds the inbound rows the transaction inserted
	// (Receive), by id, with what they record of the mail's handling as
	// inserted: rows that exist, until a savepoint's rollback (which
	// forgets everything) may have undone them. Only Settle writes those
	// columns.
	received map[int64]inboundSettled
	// notOver holds the games the transaction read in a status that is
	// not over (Status.over), which only its own SetGameStatus can end:
	// the writes of a game's status are all SetGameStatus's, which
	// forgets the game here, and a game that is over never leaves it.
	// Other writes of the games table leave it, as they leave the status.
	notOver map[int64]bool
	// answered holds whether each mailbox looked up ever answered pbem
	// (Answered), and those the transaction marked (MarkAnswered). A
	// mailbox that answered stays so, unless its row moves (MoveAddress
	// writes mailboxes) or its key changes (address_aliases).
	answered map[string]bool
	// outHeads holds the outbox rows read by their Message-ID
	// (ReceiveKeeping's Reply), and whether there was one, until the
	// transaction writes the outbox.
	outHeads map[string]keptHeader
	// events holds the event log of each game the transaction read
	// under its lock, on PostgreSQL (txevents.go), with the ids it
	// reserved for the events it appends.
	events map[int64]*keptEvents
	// unreachable holds what the unreachable table says of the
	// recipients a claim read (claimSQL, on PostgreSQL): the row, or
	// found false for none.
	unreachable map[string]keptUnreachable
}

// keptUnreachable is an address's row of the unreachable table, or that
// there is none (found false).
type keptUnreachable struct {
	u     Unreachable
	found bool
}

// keepUnreachable keeps what a claim read of its recipients.
func (m *txMemo) keepUnreachable(c claimedUnreachable) {
	for _, a := range c.read {
		u, found := c.rows[a]
		put(&m.unreachable, a, keptUnreachable{u, found})
	}
}

// keptHeader is an outbox row the memo keeps by its Message-ID, or that
// there is none (found false).
type keptHeader struct {
	o     Outgoing
	found bool
}

// forgetAll empties the memo.
func (m *txMemo) forgetAll() { *m = txMemo{} }

// before is called with every statement the transaction runs, before it
// runs: a statement that may write a kept table forgets its rows. A game's
// row holds its last move's number and whether it has an undo proposal
// (gameColumns reads moves and undos), so a new move or a written
// proposal forgets it too.
func (m *txMemo) before(query string) {
	table, ok := writtenTable(query)
	if !ok {
		m.forgetAll()
		return
	}
	m.writes(table)
}

// writes forgets what the memo kept of table, which a statement is about
// to write; "" (a statement that writes nothing) forgets nothing.
func (m *txMemo) writes(table string) {
	switch table {
	case "games", "moves", "undos": // a game's row holds whether it has an undo
		m.games = nil
	case "seats":
		m.seats = nil
	case "players":
		m.players = nil
	case "address_aliases":
		m.playerOf, m.budgetKeys, m.bounced, m.answered = nil, nil, nil, nil
	case "mailboxes":
		m.answered = nil
	case "bounce_days", "unreachable":
		m.bounced, m.unreachable = nil, nil
	case "outbox":
		m.outHeads = nil
	case "events":
		// An event written as the memo does not (appendKept) may take
		// any id: the kept logs no longer hold every event after them.
		m.events = nil
	case "inbound":
		// What a row records of its mail's handling is Settle's to
		// write (setOutcomeSQL), which keeps it again after.
		m.received = nil
	}
}

// writtenTable reports the table a statement writes: "" for a SELECT,
// which writes none, and ok false when it cannot tell (a WITH, which may
// update; a DELETE, after which a cascade could be added to the schema
// one day; anything else), so that the caller forgets everything.
func writtenTable(query string) (table string, ok bool) {
	// Every statement of a transaction comes here: the first words are
	// read in place, without splitting the whole statement.
	var words [5]string
	n := 0
	for rest := query; n < len(words); n++ {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			break
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		words[n], rest = rest[:end], rest[end:]
	}
	is := func(i int, keyword string) bool { return strings.EqualFold(words[i], keyword) }
	i := 0
	switch {
	case n == 0:
		return "", false
	case is(0, "SELECT"):
		return "", true
	case is(0, "INSERT"):
		i = 1
		if is(i, "OR") { // SQLite's INSERT OR IGNORE INTO
			i += 2
		}
		if i >= n || !is(i, "INTO") {
			return "", false
		}
		i++
	case is(0, "UPDATE"):
		i = 1
		if is(i, "OR") {
			i += 2
		}
	default:
		return "", false
	}
	if i >= n {
		return "", false
	}
	name := words[i]
	if j := strings.IndexByte(name, '('); j >= 0 {
		name = name[:j] // INSERT INTO t(a, b)
	}
	name = strings.ToLower(strings.Trim(name[strings.LastIndexByte(name, '.')+1:], `"`))
	if name == "" {
		return "", false
	}
	return name, true
}

// writing is the transaction's querier for a statement that writes the
// tables named and no other, which the memo cannot tell from its text (a
// DELETE, a WITH that writes): the memo forgets what it kept of those
// tables alone, rather than everything.
func (tx *Tx) writing(tables ...string) querier {
	for _, t := range tables {
		tx.memo.writes(t)
	}
	if q, ok := tx.q.(memoQuerier); ok {
		return q.q
	}
	return tx.q
}

// laterWriting is Tx.later for a statement that writes the tables named
// and no other (Tx.writing): the memo forgets what it kept of those
// alone, and nothing for none.
func (tx *Tx) laterWriting(ctx context.Context, what, query string, tables []string, args ...any) error {
	if _, ok := tx.tx.(*pgTx); ok {
		return tx.laterInto(ctx, what, query, tables, args...)
	}
	if _, err := tx.writing(tables...).ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("store: %s: %w", what, wrap(err))
	}
	return nil
}

// Answered is reader.Answered, kept: a mail queued to each player of a
// game asks it of each of them, and in a batch most of them have marked
// their mailboxes answered in the same transaction (MarkAnswered).
func (tx *Tx) Answered(ctx context.Context, mailbox string) (bool, error) {
	mailbox = NormalizeAddress(mailbox)
	if a, ok := tx.memo.answered[mailbox]; ok {
		return a, nil
	}
	a, err := tx.reader.Answered(ctx, mailbox)
	if err != nil {
		return false, err
	}
	put(&tx.memo.answered, mailbox, a)
	return a, nil
}

// EventsKeepingAnswered is Events, and whether each of mailboxes ever
// answered pbem (Answered), which the transaction then keeps: the
// mailboxes of the players a command's mails are about to go to, each of
// which a mail's limit asks (internal/outgoing). On PostgreSQL both are
// read in one round trip, and the mailboxes by one statement, where each
// mailbox asked was a round trip of its own after the events' (issue
// 40); events the transaction keeps (txevents.go) are not read, and
// with no mailbox to ask it takes no round trip. On SQLite it is
// Events, and Answered reads when asked.
func (tx *Tx) EventsKeepingAnswered(ctx context.Context, gameID, sinceID int64, mailboxes []string) ([]Event, error) {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		return tx.Events(ctx, gameID, sinceID)
	}
	var boxes []string
	for _, b := range mailboxes {
		b = NormalizeAddress(b)
		if _, kept := tx.memo.answered[b]; b != "" && !kept && !slices.Contains(boxes, b) {
			boxes = append(boxes, b)
		}
	}
	if len(boxes) == 0 {
		return tx.Events(ctx, gameID, sinceID)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Reads alone: the memo forgets nothing for them (txMemo.before).
	// The events are not read when the transaction keeps them
	// (txevents.go).
	var batch []batchQuery
	after := 0 // the waiting writes a read could see, as a read by itself goes (pgTx.mustFollow)
	evs, kept := tx.keptEventsSince(gameID, sinceID)
	if !kept {
		events := p.rb.rebind(eventsSQL)
		tx.m.query(eventsSQL, []any{gameID, sinceID})
		batch = append(batch, batchQuery{events, []any{gameID, sinceID}})
		after = p.mustFollow(events)
	}
	answered := p.rb.rebind(answeredAmongSQL)
	tx.m.query(answeredAmongSQL, []any{boxes})
	batch = append(batch, batchQuery{answered, []any{boxes}})
	read := p.batchReadsAfter(ctx, max(after, p.mustFollow(answered)), batch)
	if !kept {
		rows, err := p.mem.query(read[0])
		if evs, err = scanEvents(gameID, rows, err); err != nil {
			return nil, err
		}
		read = read[1:]
	}
	rows, err := p.mem.query(read[0])
	if err != nil {
		return nil, fmt.Errorf("store: whether %d mailboxes answered: %w", len(boxes), wrap(err))
	}
	defer rows.Close()
	for rows.Next() {
		var box string
		var a bool
		if err := rows.Scan(&box, &a); err != nil {
			return nil, fmt.Errorf("store: whether %d mailboxes answered: %w", len(boxes), wrap(err))
		}
		put(&tx.memo.answered, box, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: whether %d mailboxes answered: %w", len(boxes), wrap(err))
	}
	return evs, nil
}

// answeredAmongSQL is InviteStatus's answer for each of several
// mailboxes, an array: each with whether it ever answered pbem, by its
// budget key (budgetKeySQL). PostgreSQL's alone. The array is a
// sub-select, whose length the planner does not see, so that its
// generic plan is used (eventsSQL): a custom plan, made for the number
// of mailboxes bound, looked cheaper, and the statement was planned again
// on 780 of its 1,900 runs in a load of 32 games.
const answeredAmongSQL = `SELECT k.box, count(m.answered_at) > 0
	FROM unnest((SELECT CAST(? AS text[]))) AS k(box)
	LEFT JOIN mailboxes m ON m.mailbox = coalesce((SELECT a.mailbox FROM address_aliases a
		WHERE a.alias_mailbox = k.box ORDER BY a.alias LIMIT 1), k.box)
	GROUP BY k.box`

// OutgoingHeader is reader.OutgoingHeader, kept when ReceiveKeeping read
// it with a mail's record, until the transaction writes the outbox.
func (tx *Tx) OutgoingHeader(ctx context.Context, messageID string) (Outgoing, error) {
	if k, ok := tx.memo.outHeads[messageID]; ok {
		if !k.found {
			return Outgoing{}, fmt.Errorf("store: outgoing %q: %w", messageID, wrap(sql.ErrNoRows))
		}
		return k.o, nil
	}
	return tx.reader.OutgoingHeader(ctx, messageID)
}

// memoQuerier is a transaction's querier that tells its memo of every
// statement before running it.
type memoQuerier struct {
	q    querier
	memo *txMemo
}

func (t memoQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.memo.before(query)
	return t.q.ExecContext(ctx, query, args...)
}

func (t memoQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.memo.before(query)
	return t.q.QueryContext(ctx, query, args...)
}

func (t memoQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.memo.before(query)
	return t.q.QueryRowContext(ctx, query, args...)
}

// Game is reader.Game, kept until the transaction writes games or moves.
// The caller gets a copy of its own.
func (tx *Tx) Game(ctx context.Context, id int64) (Game, error) {
	if g, ok := tx.memo.games[id]; ok {
		return g.clone(), nil
	}
	g, err := tx.reader.Game(ctx, id)
	if err != nil {
		return Game{}, err
	}
	put(&tx.memo.games, id, g.clone())
	if !g.Status.over() {
		put(&tx.memo.notOver, id, true)
	}
	return g, nil
}

// knownNotOver reports whether the game is one the transaction read not
// over, and nothing but another transaction could have ended since: on
// SQLite, whose one writer is this transaction; on PostgreSQL under
// Store.Tx, beside which nothing writes, or in the game's own GameTx,
// which holds its row.
func (tx *Tx) knownNotOver(id int64) bool {
	return tx.memo.notOver[id] && (tx.game == 0 || tx.game == id)
}

// PendingUndo is reader.PendingUndo, answered from the game's kept row
// when that says the game has no proposal (Game.UndoOpen): a move asks
// each time, and there is nearly never one.
func (tx *Tx) PendingUndo(ctx context.Context, gameID int64) (UndoProposal, error) {
	if g, ok := tx.memo.games[gameID]; ok && !g.UndoOpen {
		return UndoProposal{}, ErrNotFound
	}
	return tx.reader.PendingUndo(ctx, gameID)
}

// clone is g with byte slices of its own.
func (g Game) clone() Game {
	g.Setup, g.Options, g.Snapshot = bytes.Clone(g.Setup), bytes.Clone(g.Options), bytes.Clone(g.Snapshot)
	return g
}

// Seats is reader.Seats, kept until the transaction writes seats.
func (tx *Tx) Seats(ctx context.Context, gameID int64) ([]Seat, error) {
	if ss, ok := tx.memo.seats[gameID]; ok {
		return slices.Clone(ss), nil
	}
	ss, err := tx.reader.Seats(ctx, gameID)
	if err != nil {
		return nil, err
	}
	put(&tx.memo.seats, gameID, slices.Clone(ss))
	return ss, nil
}

// Seat is reader.Seat, from the game's seats when the transaction has
// them.
func (tx *Tx) Seat(ctx context.Context, gameID int64, seat int) (Seat, error) {
	if ss, ok := tx.memo.seats[gameID]; ok {
		for _, s := range ss {
			if s.Seat == seat {
				return s, nil
			}
		}
	}
	return tx.reader.Seat(ctx, gameID, seat)
}

// SeatByToken is reader.SeatByToken, from the seats the transaction
// keeps when the token is one of theirs: tokens are unique, and lower
// case as reader.SeatByToken looks them up. Otherwise the seat is read
// with its game's other seats, in one statement, and the transaction
// keeps them (Seats): a mail to a seat's address reads the seat, then
// its game's seats (issue 40). On PostgreSQL a game's transaction keeps
// no other game's seats, which other transactions may write.
func (tx *Tx) SeatByToken(ctx context.Context, token string) (Seat, error) {
	lower := strings.ToLower(token)
	for _, ss := range tx.memo.seats {
		for _, s := range ss {
			if s.Token == lower {
				return s, nil
			}
		}
	}
	if tx.game != 0 && tx.be.engine() == PostgreSQL {
		return tx.reader.SeatByToken(ctx, token)
	}
	ss, err := tx.reader.seatsByToken(ctx, lower)
	if err != nil {
		return Seat{}, err
	}
	for _, s := range ss {
		if s.Token == lower {
			put(&tx.memo.seats, s.GameID, slices.Clone(ss))
			return s, nil
		}
	}
	return Seat{}, fmt.Errorf("store: seat by token: %w", ErrNotFound)
}

// PlayerOf is reader.PlayerOf, from what Reachable read of the address,
// until the transaction writes address_aliases.
func (tx *Tx) PlayerOf(ctx context.Context, address string) (string, error) {
	if p, ok := tx.memo.playerOf[NormalizeAddress(address)]; ok {
		return p, nil
	}
	return tx.reader.PlayerOf(ctx, address)
}

// budgetKey is reader.budgetKey, kept until the transaction writes
// address_aliases: a command looks up its sender's once to mark him
// answered and again to spend from his budget.
func (tx *Tx) budgetKey(ctx context.Context, key string) (string, error) {
	if k, ok := tx.memo.budgetKeys[key]; ok {
		return k, nil
	}
	k, err := tx.reader.budgetKey(ctx, key)
	if err != nil {
		return "", err
	}
	put(&tx.memo.budgetKeys, key, k)
	return k, nil
}

// Player is reader.Player, kept until the transaction writes players,
// but for its own writes of a kept player's columns, which it keeps as
// written (setPlayer). The player of a seat of a game whose seats the
// transaction keeps is read with the game's other players
// (SeatedPlayers), in the one statement: a command reads its sender,
// then the player whose clock starts, then every seat's player to mail
// them (issue 40).
func (tx *Tx) Player(ctx context.Context, address string) (Player, error) {
	address = NormalizeAddress(address)
	if p, ok := tx.memo.players[address]; ok {
		return p, nil
	}
	if gameID, ok := tx.memo.seatedIn(address); ok {
		if _, err := tx.SeatedPlayers(ctx, gameID); err != nil {
			return Player{}, err
		}
		if p, ok := tx.memo.players[address]; ok {
			return p, nil
		}
	}
	p, err := tx.reader.Player(ctx, address)
	if err != nil {
		return Player{}, err
	}
	put(&tx.memo.players, p.Address, p)
	return p, nil
}

// AwayUntil is reader.AwayUntil, from the player's row as Player keeps
// it: the daemon reads a player's row and his vacation together, for
// the clock of the seat it waits on next.
func (tx *Tx) AwayUntil(ctx context.Context, address string) (time.Time, error) {
	p, err := tx.Player(ctx, address)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: away of %s: %w", NormalizeAddress(address), err)
	}
	return p.AwayUntil, nil
}

// SeatedPlayers is reader.SeatedPlayers; the players it read are kept
// for Player. When the transaction keeps the game's seats and the
// player of every one of them, it reads nothing.
func (tx *Tx) SeatedPlayers(ctx context.Context, gameID int64) (map[string]Player, error) {
	if ps, ok := tx.memo.seatedPlayers(gameID); ok {
		return ps, nil
	}
	ps, err := tx.reader.SeatedPlayers(ctx, gameID)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		put(&tx.memo.players, p.Address, p)
	}
	return ps, nil
}

// seatedIn reports a game whose seats the memo keeps that seats the
// address.
func (m *txMemo) seatedIn(address string) (int64, bool) {
	for id, ss := range m.seats {
		for _, s := range ss {
			if s.Address == address {
				return id, true
			}
		}
	}
	return 0, false
}

// seatedPlayers is what reader.SeatedPlayers reads of the game, when the
// memo keeps its seats (every one of them, as Seats read them) and the
// player of each: every seat's address is a player's (seats.address
// references players).
func (m *txMemo) seatedPlayers(gameID int64) (map[string]Player, bool) {
	ss, ok := m.seats[gameID]
	if !ok {
		return nil, false
	}
	ps := make(map[string]Player, len(ss))
	for _, s := range ss {
		p, ok := m.players[s.Address]
		if !ok {
			return nil, false
		}
		ps[s.Address] = p
	}
	return ps, true
}

// keepingGame runs write, which writes the game's row or appends to its
// moves, and keeps the game's row, if the transaction keeps it, as set
// changes it: set must be the whole of what write changes of the row as
// Game reads it (other games' rows are forgotten, as the statement
// made it).
func (tx *Tx) keepingGame(gameID int64, set func(*Game), write func() error) error {
	kept, ok := tx.memo.games[gameID]
	if err := write(); err != nil {
		return err
	}
	if ok {
		set(&kept)
		put(&tx.memo.games, gameID, kept)
	}
	return nil
}

// keepingSeat runs query, which updates one row of seats, the seat of
// game gameID, as set does to the row as the transaction keeps it: when
// it succeeds, the transaction keeps the game's seats with set applied
// rather than forgetting them, as query made it (other games' seats are
// forgotten). query must change nothing else: set is the whole of what
// it does.
//
// When the transaction keeps the seat, its row exists: the game is
// locked, and a statement that might have deleted it would have made
// the transaction forget its seats (txMemo.before). The seat's row as
// set leaves it is then written whole (laterSeat) rather than query:
// it needs no answer, goes with the next statement, and the seat's
// other writes of the command join it. Otherwise query runs at once,
// and must change exactly one row (execOne).
func (tx *Tx) keepingSeat(ctx context.Context, gameID int64, seat int, set func(*Seat), query string, args ...any) error {
	return tx.keepingSeatBy(ctx, gameID, seat, set, func(row Seat) error { return tx.laterSeat(ctx, row) }, query, args...)
}

// keepingSeatBy is keepingSeat, with write the write of a kept seat's
// row as set leaves it: the row whole (keepingSeat), or query itself
// waiting for the next statement (setSeat).
func (tx *Tx) keepingSeatBy(ctx context.Context, gameID int64, seat int, set func(*Seat), write func(Seat) error, query string, args ...any) error {
	kept, ok := tx.memo.seats[gameID]
	i := slices.IndexFunc(kept, func(s Seat) bool { return s.Seat == seat })
	if i < 0 {
		if err := tx.execOne(ctx, query, args...); err != nil {
			return err
		}
		if ok {
			put(&tx.memo.seats, gameID, kept) // the other seats, unchanged
		}
		return nil
	}
	row := kept[i]
	set(&row)
	if err := write(row); err != nil {
		return err
	}
	kept[i] = row // the memo's own copy: callers were given clones
	put(&tx.memo.seats, gameID, kept)
	return nil
}

// seatRowSQL writes the columns of a seat that a command's writes of its
// decision, deadline, reminder, thread and last event change
// (keepingSeat's callers), from the row as the transaction keeps it.
const seatRowSQL = `UPDATE seats SET deadline = ?, waiting_since = ?, remind_at = ?, remind_lead = ?, decision = ?,
	last_mailed_event = ?, last_message_id = ?, thread_root = ? WHERE game_id = ? AND seat = ?`

// seatRowsSQL[n] is seatRowSQL for n seats' rows of one game in one
// statement, on PostgreSQL (pgTx.join): the values of each row, in
// seatRowSQL's order, one row after the other. The first row's casts give
// the columns their types. The game named once, as the first row's, lets
// the plan find the game's seats by the primary key whatever it thinks
// of the values' rows (TestSeatRowsInOneStatement).
var seatRowsSQL = func() []string {
	out := make([]string, maxSeatRows+1)
	types := []string{"bigint", "bigint", "bigint", "bigint", "bigint", "bigint", "text", "text", "bigint", "bigint"}
	for n := 2; n <= maxSeatRows; n++ {
		var b strings.Builder
		b.WriteString(`UPDATE seats AS s SET deadline = v.deadline, waiting_since = v.waiting_since, remind_at = v.remind_at,
	remind_lead = v.remind_lead, decision = v.decision, last_mailed_event = v.last_mailed_event,
	last_message_id = v.last_message_id, thread_root = v.thread_root
	FROM (VALUES `)
		for row := range n {
			if row > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(")
			for col, typ := range types {
				if col > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "$%d", row*len(types)+col+1)
				if row == 0 {
					b.WriteString("::" + typ)
				}
			}
			b.WriteString(")")
		}
		b.WriteString(`) AS v(deadline, waiting_since, remind_at, remind_lead, decision, last_mailed_event, last_message_id, thread_root, game_id, seat)
	WHERE s.game_id = $9 AND v.game_id = s.game_id AND s.seat = v.seat`)
		out[n] = b.String()
	}
	return out
}()

// maxSeatRows is the most seats' rows one statement writes (seatRowsSQL):
// more than a game's seats, which are at most six.
const maxSeatRows = 8

// seatRowColumns are the columns seatRowSQL sets
// (TestSeatRowColumns).
var seatRowColumns = []string{"deadline", "waiting_since", "remind_at", "remind_lead", "decision",
	"last_mailed_event", "last_message_id", "thread_root"}

// laterSeat writes s, a seat the transaction keeps, through later. On
// PostgreSQL a write of the same seat still waiting takes its values
// instead (pgTx.merge): a command wrote one seat three or four times, a
// deadline, the last event and the Message-ID of its mail, each 100 to
// 200 µs of the server's time (issue 40). On SQLite the write waits on
// the session for the next statement that could see it, and a write of
// the same seat meanwhile takes its place (sqliteSession.deferSeat).
func (tx *Tx) laterSeat(ctx context.Context, s Seat) error {
	args := []any{nullUnix(s.Deadline), nullUnix(s.WaitingSince), nullUnix(s.RemindAt), int64(s.RemindLead / time.Second),
		s.Decision, s.LastMailedEvent, s.LastMessageID, s.ThreadRoot, s.GameID, s.Seat}
	if p, ok := tx.tx.(*pgTx); ok {
		if err := ctx.Err(); err != nil {
			return err
		}
		if p.merge(seatKey{s.GameID, s.Seat}, args) {
			tx.memo.before(seatRowSQL)
			return nil
		}
		if p.join(seatKey{s.GameID, s.Seat}, args) {
			tx.memo.before(seatRowSQL) // no statement more: the row goes with the write before
			return nil
		}
		tx.m.query(seatRowSQL, args)
		tx.memo.before(seatRowSQL)
		p.laterKeyed(seatKey{s.GameID, s.Seat}, "update a seat", seatRowSQL, args)
		return nil
	}
	if st, ok := tx.tx.(sqliteTx); ok {
		if err := ctx.Err(); err != nil {
			return err // as meteredQuerier would
		}
		tx.memo.before(seatRowSQL)
		if !st.s.deferSeat(seatKey{s.GameID, s.Seat}, args) {
			tx.m.query(seatRowSQL, args)
		}
		return nil
	}
	return tx.later(ctx, "update a seat", seatRowSQL, args...)
}

// seatKey names a seat's row, for pgTx.merge.
type seatKey struct {
	game int64
	seat int
}

// put sets (*m)[k] to v, making the map first.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}
