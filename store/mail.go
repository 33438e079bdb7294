package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Inbound is the record of one message taken from IMAP.
type Inbound struct {
	ID          int64  // assigned by RecordInbound
	MessageID   string // the Message-ID header; may be empty if it had none
	Mailbox     string
	UIDValidity uint32
	UID         uint32 // 0 if the message did not come from IMAP
	From        string
	Token       string // the seat token it was addressed to, if any
	GameID      int64  // the game it concerned, 0 for none
	// Outcome is what became of it, e.g. "applied", "refused": the text
	// of a daemon.Outcome (daemon.OutcomeApplied…), kept as text here
	// because the store knows no daemon.
	Outcome    string
	Detail     string // why, for refusals
	ReceivedAt time.Time
	// SentAs makes the mail the same mail when it comes again with its
	// Message-ID, from its sender, to its address of pbem's: SentAs's
	// key. "" for a mail that only its bytes or UID make known again
	// (one with no Message-ID, one pbem did not read).
	SentAs string
	// Digest is a digest of the mail's bytes, the same each time the
	// mail server hands the same mail over; "" for none.
	Digest string
	// SenderMailbox is the key of the sender's mailbox (the daemon's
	// internal/mailbox), whose answered state Receive reads with the
	// record (Tx.Answered); "" for none. It is not stored.
	SenderMailbox string
}

// SentAs is what makes an inbound mail the same mail as one recorded
// before, by its Message-ID (issue 33): the Message-ID together with
// its sender and the address of pbem's it was sent to (to: the seat
// token the mail names, "" for pbem's bare address). A Message-ID alone
// is chosen by whoever writes the mail, and many mail programs make
// them predictably, so a stranger could take the Message-ID of a
// player's next mail first; he cannot send it from the player's address
// to the player's seat. The sender's address and the token are
// compared lower-case, as pbem reads them. "" for no Message-ID.
//
// The key is text, "from to message-id", so that migration 00020 could
// write it for the rows recorded before: an address of a mail pbem acts
// on has no space (parser.CheckAddress), and a token none.
func SentAs(messageID, from, to string) string {
	if messageID == "" {
		return ""
	}
	return NormalizeAddress(from) + " " + strings.ToLower(strings.TrimSpace(to)) + " " + messageID
}

// InboundSeen reports whether in was recorded before (issue 33): the
// same mail again, by its Message-ID with its sender and address
// (in.SentAs), by its bytes (in.Digest), or by its UID in the mailbox's
// UIDVALIDITY epoch (in.Mailbox, in.UIDValidity, in.UID). An empty key or
// a zero UID is not compared.
//
// Each condition is written on the column, repeating the WHERE of its
// partial index (inbound_sent_as and inbound_digest: the column is not
// the empty string; inbound_uid: uid > 0) word for word: SQLite uses a
// partial index only when the query implies the index's WHERE, and a
// test of the parameter (?1 not empty) does not, so the subqueries used to
// read the whole table (issue 15). The meaning is the same: the column
// equals the parameter, so it is empty or zero exactly when the
// parameter is.
func (r reader) InboundSeen(ctx context.Context, in Inbound) (bool, error) {
	var seen bool
	err := r.q.QueryRowContext(ctx, inboundSeenQuery, in.SentAs, in.Digest, in.Mailbox, in.UIDValidity, in.UID).Scan(&seen)
	if err != nil {
		return false, fmt.Errorf("store: inbound seen %q: %w", in.MessageID, wrap(err))
	}
	return seen, nil
}

const inboundSeenQuery = `SELECT
	EXISTS (SELECT 1 FROM inbound WHERE sent_as = ?1 AND sent_as <> '')
	OR EXISTS (SELECT 1 FROM inbound WHERE digest = ?2 AND digest <> '')
	OR EXISTS (SELECT 1 FROM inbound WHERE mailbox = ?3 AND uid_validity = ?4 AND uid = ?5 AND uid > 0)`

// RecordInbound records a message and returns its id. A message already
// recorded, by any key of InboundSeen's, yields ErrDuplicate: the daemon's
// transaction then rolls back, so a message that raced past InboundSeen is
// still applied once.
func (tx *Tx) RecordInbound(ctx context.Context, in Inbound) (int64, error) {
	if in.Outcome == "" {
		return 0, fmt.Errorf("store: record inbound %q: empty outcome", in.MessageID)
	}
	var id int64
	err := tx.mayDuplicate(ctx, func() error {
		return tx.q.QueryRowContext(ctx, insertInboundSQL, inboundRow(in)...).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("store: record inbound %q: %w", in.MessageID, wrap(err))
	}
	return id, nil
}

// insertInboundSQL records an inbound mail (inboundRow) and returns its
// id.
const insertInboundSQL = `
	INSERT INTO inbound (message_id, mailbox, uid_validity, uid, from_addr, token, game_id,
		outcome, detail, received_at, sent_as, digest)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`

// receiveInboundSQL is insertInboundSQL that does nothing, and returns
// no row, for a mail recorded before (Receive); with the id, it returns
// what Reachable reads of the mail's sender (reachableColumns).
var receiveInboundSQL = `
	INSERT INTO inbound (message_id, mailbox, uid_validity, uid, from_addr, token, game_id,
		outcome, detail, received_at, sent_as, digest)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
	RETURNING id, ` + reachableColumns("inbound.from_addr") + `, ` + answeredColumn

// inboundRow is in as insertInboundSQL's arguments.
func inboundRow(in Inbound) []any {
	return []any{in.MessageID, in.Mailbox, in.UIDValidity, in.UID, NormalizeAddress(in.From), in.Token,
		nullID(in.GameID), in.Outcome, textDetail(in.Detail), unix(in.ReceivedAt), in.SentAs, in.Digest}
}

// SetInboundOutcome records what became of an inbound message once it was
// handled. The daemon records the message first, so that the moves its
// commands make can name it, and its outcome last, in the same transaction.
func (tx *Tx) SetInboundOutcome(ctx context.Context, id int64, in Inbound) error {
	if in.Outcome == "" {
		return fmt.Errorf("store: set outcome of inbound %d: empty outcome", id)
	}
	if err := tx.execOne(ctx, setOutcomeSQL, in.Token, nullID(in.GameID), in.Outcome, textDetail(in.Detail), id); err != nil {
		return fmt.Errorf("store: set outcome of inbound %d: %w", id, err)
	}
	return nil
}

// inboundSettled is what an inbound row records of the mail's handling,
// as Settle writes it (setOutcomeSQL).
type inboundSettled struct {
	token   string
	game    int64
	outcome string
	detail  string
}

// settledAs is what in's row records of its handling, stored as
// inboundRow and setOutcomeSQL store it.
func settledAs(in Inbound) inboundSettled {
	return inboundSettled{token: in.Token, game: in.GameID, outcome: in.Outcome, detail: textDetail(in.Detail)}
}

// setOutcomeSQL records what became of inbound mail: its token, game,
// outcome and detail, by its id.
const setOutcomeSQL = `UPDATE inbound SET token = ?, game_id = ?, outcome = ?, detail = ? WHERE id = ?`

// Receive begins the record of an inbound mail, in the transaction that
// applies it. A mail seen before (InboundSeen) is not recorded again:
// Receive moves the mailbox's cursor past it (in.UID; LMTP mail has none)
// and reports seen. Any other mail is recorded with in.Outcome
// (RecordInbound), and its id returned, so that the moves its commands
// make can name it; Settle records what became of it. A mail recorded by
// another transaction meanwhile yields ErrDuplicate.
//
// Receive and Settle are the daemon's two steps of a mail's record, each
// a short script of the statements the single-step methods run.
func (tx *Tx) Receive(ctx context.Context, in Inbound) (id int64, seen bool, err error) {
	return tx.receive(ctx, in, func(args []any) *sql.Row {
		return tx.q.QueryRowContext(ctx, receiveInboundSQL, args...)
	})
}

// Keeping is what ReceiveKeeping reads with a mail's record.
type Keeping struct {
	// Game is the game the mail is about (0: none known), whose row,
	// seats and players the transaction then keeps.
	Game int64
	// Reply is the Message-ID the mail answers (its In-Reply-To; "" for
	// none), whose outbox row the transaction then keeps for
	// OutgoingHeader: a player's reply is checked against the mail it
	// answers (the daemon's stale replies).
	Reply string
}

// ReceiveKeeping is Receive for a mail about keep.Game, whose row,
// seats, players and event log the transaction then keeps (txmemo.go,
// txevents.go) for the reads of them that follow, unless it keeps them
// already: for a mail in a batch of several games' mail, whose
// transaction is not its game's own (Store.GameTx reads them as it
// locks the game). The outbox row of
// keep.Reply is kept too, found or not. On PostgreSQL they are read in
// the round trip of the mail's record, where each was a round trip of
// its own (issue 40). A mail seen before reads them all the same, and a
// game that does not exist keeps nothing. On SQLite it is Receive: a
// read there is a call, not a round trip.
func (tx *Tx) ReceiveKeeping(ctx context.Context, in Inbound, keep Keeping) (id int64, seen bool, err error) {
	p, ok := tx.tx.(*pgTx)
	_, game := tx.memo.games[keep.Game]
	_, seats := tx.memo.seats[keep.Game]
	readGame := keep.Game > 0 && !(game && seats)
	_, kept := tx.memo.outHeads[keep.Reply]
	readReply := keep.Reply != "" && !kept
	if !ok || (!readGame && !readReply) {
		return tx.Receive(ctx, in)
	}
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	var read []*bufferedRows
	id, seen, err = tx.receive(ctx, in, func(args []any) *sql.Row {
		tx.m.query(receiveInboundSQL, args)
		tx.memo.before(receiveInboundSQL)
		batch := []batchQuery{{p.rb.rebind(receiveInboundSQL), flags(args)}}
		if readGame {
			batch = tx.idQueries(p, batch, []string{gameSQL, seatsAndPlayersSQL}, keep.Game)
			batch = tx.eventQueries(p, batch, keep.Game)
		}
		if readReply {
			tx.m.query(outgoingHeaderSQL, []any{keep.Reply})
			batch = append(batch, batchQuery{p.rb.rebind(outgoingHeaderSQL), []any{keep.Reply}})
		}
		read = p.batchReads(ctx, batch)
		return p.mem.queryRow(read[0])
	})
	if err != nil {
		return id, seen, err
	}
	read = read[1:]
	if readGame {
		if len(read[0].rows) > 0 || read[0].err != nil { // else no such game
			if err := tx.keepRead(p, keep.Game, read[0], read[1]); err != nil {
				return id, seen, fmt.Errorf("store: keep game %d: %w", keep.Game, err)
			}
			if err := tx.keepEvents(keep.Game, read[2]); err != nil {
				return id, seen, fmt.Errorf("store: keep game %d: %w", keep.Game, err)
			}
		}
		read = read[3:]
	}
	if readReply {
		o, err := scanOutgoing(p.mem.queryRow(read[0]))
		switch {
		case err == nil:
			put(&tx.memo.outHeads, keep.Reply, keptHeader{o, true})
		case errors.Is(err, sql.ErrNoRows):
			put(&tx.memo.outHeads, keep.Reply, keptHeader{})
		default:
			return id, seen, fmt.Errorf("store: keep outgoing %q: %w", keep.Reply, wrap(err))
		}
	}
	return id, seen, nil
}

// receive is Receive, whose statement record runs with its arguments.
func (tx *Tx) receive(ctx context.Context, in Inbound, record func(args []any) *sql.Row) (id int64, seen bool, err error) {
	if in.Outcome == "" {
		return 0, false, fmt.Errorf("store: receive inbound %q: empty outcome", in.MessageID)
	}
	// One statement: the insert does nothing when the mail is one
	// recorded before, by any of InboundSeen's keys, each of which has a
	// unique index (inbound_sent_as, inbound_digest, inbound_uid), and
	// then returns no row. A mail another transaction is recording
	// meanwhile waits for it (PostgreSQL) or cannot be (SQLite's one
	// writer), so that it too is seen, never recorded twice (issue 40:
	// InboundSeen and the insert, and on PostgreSQL the insert's
	// savepoint, were four statements).
	// It also reads what Reachable reads of the sender, which the daemon
	// asks next of every mail it acts on (issue 40: a statement of every
	// command).
	// And whether the sender's mailbox answered pbem, which the daemon
	// marks for a mail only its owner could have sent (MarkAnswered): a
	// mailbox that did needs no mark, nor, on PostgreSQL, its lock.
	var sender senderRow
	var answered bool
	box := NormalizeAddress(in.SenderMailbox)
	args := append(inboundRow(in), box, box)
	switch err := record(args).Scan(&id, &sender.bounced, &sender.player, &answered); {
	case err == nil:
		put(&tx.memo.received, id, settledAs(in))
		tx.memo.keepSender(NormalizeAddress(in.From), sender)
		if box != "" {
			put(&tx.memo.answered, box, answered)
		}
		return id, false, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, false, fmt.Errorf("store: receive inbound %q: %w", in.MessageID, wrap(err))
	}
	if in.UID > 0 {
		if _, err := tx.exec(ctx, setCursorSQL, in.Mailbox, in.UIDValidity, in.UID); err != nil {
			return 0, true, fmt.Errorf("store: set cursor of %s: %w", in.Mailbox, err)
		}
	}
	return 0, true, nil
}

// Settle records what became of the inbound mail id, Receive recorded
// (in's Outcome, Detail, Token and GameID), and moves the mailbox's
// cursor past it (in.UID; LMTP mail has none): the mail's effects, its
// record and the cursor are in one commit, which is what makes a mail
// applied exactly once (docs/exactly-once.md).
func (tx *Tx) Settle(ctx context.Context, id int64, in Inbound) error {
	if in.Outcome == "" {
		return fmt.Errorf("store: settle inbound %d: empty outcome", id)
	}
	args := []any{in.Token, nullID(in.GameID), in.Outcome, textDetail(in.Detail), id}
	switch inserted, ok := tx.memo.received[id]; {
	case ok && inserted == settledAs(in):
		// The row is this transaction's own (Receive), inserted with
		// what it is settled with: the daemon records a mail with the
		// outcome its handling will most likely have (issue 40: the
		// UPDATE was a statement of every mail, and a dead row).
	case ok:
		// The row is this transaction's own, so the update changes
		// exactly it, and needs no answer (Tx.later): on PostgreSQL it
		// goes with the COMMIT.
		if err := tx.later(ctx, "settle an inbound mail", setOutcomeSQL, args...); err != nil {
			return err
		}
		put(&tx.memo.received, id, settledAs(in))
	default:
		if err := tx.execOne(ctx, setOutcomeSQL, args...); err != nil {
			return fmt.Errorf("store: settle inbound %d: %w", id, err)
		}
	}
	if in.UID == 0 {
		return nil
	}
	// Nothing waits for its answer (Tx.later): on PostgreSQL it goes
	// with the COMMIT.
	return tx.later(ctx, "set the mailbox's cursor", setCursorSQL, in.Mailbox, in.UIDValidity, in.UID)
}

// InboundByMessageID returns the record of the message with the
// Message-ID: the first recorded, when several senders' mails carried it.
func (r reader) InboundByMessageID(ctx context.Context, messageID string) (Inbound, error) {
	in, err := scanInbound(r.q.QueryRowContext(ctx, `
		SELECT `+inboundColumns+`
		FROM inbound WHERE message_id = ? AND message_id <> '' ORDER BY id LIMIT 1`, messageID))
	if err != nil {
		return Inbound{}, fmt.Errorf("store: inbound %q: %w", messageID, wrap(err))
	}
	return in, nil
}

// inboundColumns are the columns scanInbound reads, in its order.
const inboundColumns = `id, message_id, mailbox, uid_validity, uid, from_addr, token, game_id,
			outcome, detail, received_at, sent_as, digest`

// scanInbound reads a row of inboundColumns.
func scanInbound(row interface{ Scan(...any) error }) (Inbound, error) {
	var in Inbound
	var game sql.NullInt64
	var at int64
	err := row.Scan(&in.ID, &in.MessageID, &in.Mailbox, &in.UIDValidity, &in.UID, &in.From, &in.Token,
		&game, &in.Outcome, &in.Detail, &at, &in.SentAs, &in.Digest)
	if err != nil {
		return Inbound{}, err
	}
	in.GameID = game.Int64
	in.ReceivedAt = fromUnix(at)
	return in, nil
}

// Cursor returns how far the mailbox has been read: its UIDVALIDITY and
// the last UID processed. Both are 0 for a mailbox never read.
func (r reader) Cursor(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error) {
	err = r.q.QueryRowContext(ctx,
		`SELECT uid_validity, last_uid FROM imap_cursor WHERE mailbox = ?`, mailbox,
	).Scan(&uidValidity, &lastUID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("store: cursor of %s: %w", mailbox, wrap(err))
	}
	return uidValidity, lastUID, nil
}

// SetCursor records how far the mailbox has been read. The daemon sets it
// in the transaction that records the message with that UID.
func (tx *Tx) SetCursor(ctx context.Context, mailbox string, uidValidity, lastUID uint32) error {
	if _, err := tx.exec(ctx, setCursorSQL, mailbox, uidValidity, lastUID); err != nil {
		return fmt.Errorf("store: set cursor of %s: %w", mailbox, err)
	}
	return nil
}

// setCursorSQL records how far a mailbox has been read: its
// UIDVALIDITY and the last UID.
const setCursorSQL = `
	INSERT INTO imap_cursor (mailbox, uid_validity, last_uid) VALUES (?, ?, ?)
	ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid`

// AllowRefusal reports whether the address may be sent another refusal
// reply now, that is whether fewer than max were allowed in the window
// before now, and if so records this one. Records older than the window
// are dropped on the way.
func (tx *Tx) AllowRefusal(ctx context.Context, address string, now time.Time, window time.Duration, max int) (bool, error) {
	address = NormalizeAddress(address)
	if err := tx.lockAddress(ctx, address); err != nil {
		return false, err
	}
	since := unix(now.Add(-window))
	if _, err := tx.exec(ctx, `DELETE FROM refusals WHERE address = ? AND at <= ?`, address, since); err != nil {
		return false, fmt.Errorf("store: allow refusal to %s: %w", address, err)
	}
	var n int
	err := tx.q.QueryRowContext(ctx,
		`SELECT count(*) FROM refusals WHERE address = ? AND at > ?`, address, since).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: allow refusal to %s: %w", address, wrap(err))
	}
	if n >= max {
		return false, nil
	}
	if _, err := tx.exec(ctx, `INSERT INTO refusals (address, at) VALUES (?, ?)`, address, unix(now)); err != nil {
		return false, fmt.Errorf("store: allow refusal to %s: %w", address, err)
	}
	return true, nil
}

// textDetail keeps a detail that is not valid UTF-8 (a hostile mail's
// bytes quoted in an error) as readable text: the whole detail is quoted
// Go-style, so that every byte that is not UTF-8 shows as \xNN instead of
// being stored as invalid text that tools would mangle.
func textDetail(s string) string {
	// PostgreSQL's text holds no NUL, which a hostile mail may carry.
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	return strconv.Quote(s)
}
