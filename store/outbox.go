package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// OutState is where an outgoing mail is. A mail is pending until the
// sender marks it sent or, after too many failures, dead; neither of those
// changes again.
type OutState string

const (
	OutPending OutState = "pending"
	OutSent    OutState = "sent"
	OutDead    OutState = "dead"
)

// Outgoing is one mail in the outbox.
type Outgoing struct {
	ID        int64  // assigned by Enqueue
	MessageID string // deterministic, so a resend after a crash is recognisable
	GameID    int64  // 0 for mail about no game
	// Seat is the seat of GameID the mail is threaded under, -1 for none
	// (the zero value 0 is seat 0: set it). Decision and SeenEvent are
	// that seat's Decision and the last event its reader had been told
	// when the mail was written: what a reply to this mail was written
	// against.
	Seat      int
	Decision  int64
	SeenEvent int64
	To        string // the envelope recipient
	Raw       []byte // the whole message, headers and body
	// NotBefore is when the mail may be sent (next); Enqueue's caller sets
	// it to now for mail to go at once.
	NotBefore time.Time
	State     OutState
	Attempts  int    // failed attempts so far
	LastError string // why the last attempt failed, or why it is dead
	SentAt    time.Time
	// ClaimedBy is the node that claimed the mail to send it
	// (ClaimOutgoing), until ClaimedUntil; "" when none did, or its mark
	// or ReleaseClaims ended the claim. A lapsed claim is kept as it was.
	ClaimedBy    string
	ClaimedUntil time.Time
}

// Enqueue adds a pending mail to the outbox and returns its id. If a mail
// with the same Message-ID is already there, in any state, nothing changes:
// Enqueue returns the existing id and added false.
func (tx *Tx) Enqueue(ctx context.Context, o Outgoing) (id int64, added bool, err error) {
	to := NormalizeAddress(o.To)
	if o.MessageID == "" || to == "" || o.Raw == nil {
		return 0, false, fmt.Errorf("store: enqueue %q: Message-ID, recipient and message are required", o.MessageID)
	}
	err = tx.q.QueryRowContext(ctx, enqueueReturningSQL, o.row(to)...).Scan(&id)
	if err == nil {
		if _, err := tx.exec(ctx, `INSERT INTO outbox_messages (id, raw) VALUES (?, ?)`, id, tx.packer.packMessage(o.Raw)); err != nil {
			return 0, false, fmt.Errorf("store: enqueue %q: %w", o.MessageID, err)
		}
		if o.GameID != 0 {
			if _, err := tx.exec(ctx, listEndedSQL, o.GameID); err != nil {
				return 0, false, fmt.Errorf("store: enqueue %q: %w", o.MessageID, err)
			}
		}
		return id, true, nil
	}
	if err != sql.ErrNoRows {
		return 0, false, fmt.Errorf("store: enqueue %q: %w", o.MessageID, wrap(err))
	}
	// DO NOTHING returns no row: the Message-ID is taken.
	err = tx.q.QueryRowContext(ctx, `SELECT id FROM outbox WHERE message_id = ?`, o.MessageID).Scan(&id)
	if err != nil {
		return 0, false, fmt.Errorf("store: enqueue %q: %w", o.MessageID, wrap(err))
	}
	return id, false, nil
}

// Post is Enqueue for a caller that needs neither the mail's id nor
// whether it was added: the daemon, which queues every mail it writes.
// Its statements need no answer, and go to the server with the
// transaction's next (Tx.later). The store keeps o.Raw for the outbox's
// claim (queued.go): the caller must not change it after.
func (tx *Tx) Post(ctx context.Context, o Outgoing) error {
	to := NormalizeAddress(o.To)
	if o.MessageID == "" || to == "" || o.Raw == nil {
		return fmt.Errorf("store: post %q: Message-ID, recipient and message are required", o.MessageID)
	}
	if err := tx.postMessage(ctx, o, to); err != nil {
		return err
	}
	if o.GameID == 0 || tx.knownNotOver(o.GameID) {
		// A game not over is listed when it ends (SetGameStatus); the
		// statement would list nothing (issue 40: one statement of
		// each mail a command queues).
		return nil
	}
	// As Enqueue, but whether or not the mail was added: listing a
	// game again changes nothing.
	return tx.later(ctx, "list an ended game", listEndedSQL, o.GameID)
}

// enqueueSQL adds a mail to the outbox unless its Message-ID is there
// already; listEndedSQL lists the mail's game for retention
// (ended_games) if it is over. Mail about a game that is over (an answer
// telling a late player so) is retention's to forget with the game's
// other mail, which may already be gone: the game is listed again.
const (
	enqueueSQL = `INSERT INTO outbox (message_id, game_id, rcpt, message_size, not_before, seat, decision, seen_event)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (message_id) DO NOTHING`
	enqueueReturningSQL = enqueueSQL + ` RETURNING id`
	// postMessageSQL stores the message of the mail enqueueSQL queued
	// just before, found by its Message-ID: nothing when the Message-ID
	// was taken, by a mail whose message is stored (the conflict) or
	// was dropped by retention (its size 0).
	postMessageSQL = `INSERT INTO outbox_messages (id, raw)
		SELECT id, ? FROM outbox WHERE message_id = ? AND message_size > 0
		ON CONFLICT (id) DO NOTHING`
	// postSQL is both in one statement, on PostgreSQL, where an INSERT
	// may feed another.
	postSQL = `WITH queued AS (` + enqueueReturningSQL + `)
		INSERT INTO outbox_messages (id, raw) SELECT id, ? FROM queued`
	listEndedSQL = `INSERT INTO ended_games (game_id)
		SELECT id FROM games WHERE id = ? AND status IN ('finished', 'aborted', 'declined')
		ON CONFLICT DO NOTHING`
)

// row is o's values for enqueueSQL, to its normalized recipient.
func (o Outgoing) row(to string) []any {
	return []any{o.MessageID, nullID(o.GameID), to, len(o.Raw), unix(o.NotBefore), nullSeat(o.GameID, o.Seat), o.Decision, o.SeenEvent}
}

// postMessage queues o, to its normalized recipient to, with its
// message, by statements that need no answer (Tx.later).
func (tx *Tx) postMessage(ctx context.Context, o Outgoing, to string) error {
	stored := tx.packer.packMessage(o.Raw)
	if tx.be.engine() == PostgreSQL {
		// The claim takes the message from memory, as below, if the
		// statement added the mail: its message's row then, the one row
		// it inserts.
		var done func(pgconn.CommandTag)
		if tx.queued != nil {
			m := queuedMessage{messageID: o.MessageID, rcpt: to, raw: o.Raw}
			done = func(tag pgconn.CommandTag) {
				if tag.RowsAffected() == 1 {
					tx.posted = append(tx.posted, m)
				}
			}
		}
		return tx.laterIntoThen(ctx, "queue a mail", postSQL, []string{"outbox", "outbox_messages"}, done, append(o.row(to), stored)...)
	}
	res, err := tx.exec(ctx, enqueueSQL, o.row(to)...)
	if err != nil {
		return fmt.Errorf("store: queue a mail: %w", err)
	}
	if err := tx.later(ctx, "store a queued mail's message", postMessageSQL, stored, o.MessageID); err != nil {
		return err
	}
	// The outbox's claim takes the message from memory once the
	// transaction commits, if this INSERT added the mail (queued.go).
	if n, err := res.RowsAffected(); err == nil && n == 1 && tx.queued != nil {
		tx.posted = append(tx.posted, queuedMessage{messageID: o.MessageID, rcpt: to, raw: o.Raw})
	}
	return nil
}

// outColumns are an outbox row's columns as scanOutgoing reads them, and
// outHeadColumns the same without the message: NULL in its place, which
// scans as a nil Raw.
// A mail's message is in outbox_messages (migration 00031), read with
// its row from outFrom; a message retention dropped reads as NULL, a nil
// Raw.
const (
	outColumnsBefore = `id, message_id, coalesce(game_id, 0), rcpt, `
	outColumnsAfter  = `, not_before, state, attempts,
	last_error, sent_at, coalesce(seat, -1), decision, seen_event,
	coalesce(claimed_by, ''), claimed_until`
	outColumns     = outColumnsBefore + `raw` + outColumnsAfter
	outHeadColumns = outColumnsBefore + `NULL` + outColumnsAfter
	outFrom        = `outbox LEFT JOIN outbox_messages USING (id)`
	// outgoingHeaderSQL reads a mail's row by its Message-ID, without
	// its message (OutgoingHeader, ReceiveKeeping).
	outgoingHeaderSQL = `SELECT ` + outHeadColumns + ` FROM outbox WHERE message_id = ?`
)

func scanOutgoing(sc interface{ Scan(...any) error }) (Outgoing, error) {
	var o Outgoing
	var notBefore int64
	var sent, claimedUntil sql.NullInt64
	err := sc.Scan(&o.ID, &o.MessageID, &o.GameID, &o.To, &o.Raw, &notBefore, &o.State,
		&o.Attempts, &o.LastError, &sent, &o.Seat, &o.Decision, &o.SeenEvent,
		&o.ClaimedBy, &claimedUntil)
	if err != nil {
		return o, err
	}
	if o.Raw, err = unpackMessage(o.Raw); err != nil {
		return o, fmt.Errorf("the message of %s: %w", o.MessageID, err)
	}
	o.NotBefore = fromUnix(notBefore)
	o.SentAt = fromNullUnix(sent)
	if claimedUntil.Valid {
		o.ClaimedUntil = fromUnixMilli(claimedUntil.Int64)
	}
	return o, nil
}

// nullSeat stores a seat only for mail about a game.
func nullSeat(gameID int64, seat int) any {
	if gameID == 0 || seat < 0 {
		return nil
	}
	return seat
}

// OutgoingByMessageID returns the outbox row with the Message-ID, as a
// reply names it in In-Reply-To; ErrNotFound if pbem never wrote it.
func (r reader) OutgoingByMessageID(ctx context.Context, messageID string) (Outgoing, error) {
	o, err := scanOutgoing(r.q.QueryRowContext(ctx, `SELECT `+outColumns+` FROM `+outFrom+` WHERE message_id = ?`, messageID))
	if err != nil {
		return Outgoing{}, fmt.Errorf("store: outgoing %q: %w", messageID, wrap(err))
	}
	return o, nil
}

// OutgoingHeader is OutgoingByMessageID without the message (Raw is
// nil): what a reply's staleness needs of the mail it answers, without
// copying a 25 kB body out of the database on every move (issue 40).
func (r reader) OutgoingHeader(ctx context.Context, messageID string) (Outgoing, error) {
	o, err := scanOutgoing(r.q.QueryRowContext(ctx, outgoingHeaderSQL, messageID))
	if err != nil {
		return Outgoing{}, fmt.Errorf("store: outgoing %q: %w", messageID, wrap(err))
	}
	return o, nil
}

// Outgoing returns the outbox row with the id.
func (r reader) Outgoing(ctx context.Context, id int64) (Outgoing, error) {
	o, err := scanOutgoing(r.q.QueryRowContext(ctx, `SELECT `+outColumns+` FROM `+outFrom+` WHERE id = ?`, id))
	if err != nil {
		return Outgoing{}, fmt.Errorf("store: outgoing %d: %w", id, wrap(err))
	}
	return o, nil
}

// DueOutgoing returns at most limit pending mails whose NotBefore is at or
// before now, oldest first, claimed or not: what is waiting to go. The
// outbox sends what it claims (ClaimOutgoing) instead, so that several
// nodes never send the same mail.
func (r reader) DueOutgoing(ctx context.Context, now time.Time, limit int) ([]Outgoing, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+outColumns+` FROM `+outFrom+`
		WHERE state = 'pending' AND not_before <= ? ORDER BY not_before, id LIMIT ?`, unix(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due outgoing: %w", wrap(err))
	}
	defer rows.Close()
	var out []Outgoing
	for rows.Next() {
		o, err := scanOutgoing(rows)
		if err != nil {
			return nil, fmt.Errorf("store: due outgoing: %w", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due outgoing: %w", err)
	}
	return out, nil
}

// pendingUnproved is 'pending' where a statement finds mails by their
// ids: a sub-select the planner does not read, so that it cannot prove
// the partial indexes' `state = 'pending'` from it and reads by the
// primary key. With the literal, PostgreSQL read a batch's marks through
// a partial index of pending mail (its estimate of a few pending rows
// against the ids' ten), whose entries for mail sent since the last
// vacuum stay until then: every mark read them all, a fresh database's
// 3,200 in a 32-game load (180 pages a mark), and in an outbox with a
// history, as many as autovacuum lets pile up, a fifth of the table
// (issue 40; docs/store.md, "Plans").
const pendingUnproved = `(SELECT 'pending')`

// markAllSentSQL is MarkAllSent's statement, its ids matched by in
// (idsIn).
func markAllSentSQL(in string) string {
	return `UPDATE outbox SET state = 'sent', sent_at = ?, claimed_by = NULL, claimed_until = NULL
		WHERE id ` + in + ` AND state = ` + pendingUnproved + ` RETURNING id`
}

// MarkSent records that the pending mail was sent, and ends its claim,
// whichever node held it: a mail sent is sent. It yields ErrNotFound if no
// pending mail has the id.
func (tx *Tx) MarkSent(ctx context.Context, id int64, at time.Time) error {
	err := tx.execOne(ctx, `UPDATE outbox SET state = 'sent', sent_at = ?,
		claimed_by = NULL, claimed_until = NULL WHERE id = ? AND state = 'pending'`, unix(at), id)
	if err != nil {
		return fmt.Errorf("store: mark outgoing %d sent: %w", id, err)
	}
	return nil
}

// MarkAllSent is MarkSent for several mails sent in the same second (the
// store keeps seconds): one statement for them all rather than one each,
// as the outbox marks a batch (issue 40). It returns the ids it marked,
// in no order; an id missing from them was no longer pending, which
// MarkSent reports as ErrNotFound.
func (tx *Tx) MarkAllSent(ctx context.Context, ids []int64, at time.Time) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, arg := tx.be.idsIn(ids)
	rows, err := tx.q.QueryContext(ctx, markAllSentSQL(in), unix(at), arg)
	if err != nil {
		return nil, fmt.Errorf("store: mark %d outgoing sent: %w", len(ids), wrap(err))
	}
	defer rows.Close()
	marked := make([]int64, 0, len(ids))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: mark %d outgoing sent: %w", len(ids), wrap(err))
		}
		marked = append(marked, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: mark %d outgoing sent: %w", len(ids), wrap(err))
	}
	return marked, nil
}

// MarkFailed records a failed attempt to send the pending mail: it counts
// the attempt, keeps the error, ends the claim and defers the mail until
// next. It yields
// ErrNotFound if no pending mail has the id.
func (tx *Tx) MarkFailed(ctx context.Context, id int64, reason string, next time.Time) error {
	err := tx.execOne(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, not_before = ?,
		claimed_by = NULL, claimed_until = NULL WHERE id = ? AND state = 'pending'`, reason, unix(next), id)
	if err != nil {
		return fmt.Errorf("store: mark outgoing %d failed: %w", id, err)
	}
	return nil
}

// RetryDeferred makes every pending mail that an earlier attempt
// deferred (attempts > 0, NotBefore after now) due at now, and reports
// how many. pbem calls it as it starts: the backoff a failure earned
// was about the mail server as it was then, and after a restart (often
// the fix of what made sending fail) the mail should go at once rather
// than wait out up to retry_max. Mail queued to go later on purpose
// (no attempt yet) keeps its time.
func (tx *Tx) RetryDeferred(ctx context.Context, now time.Time) (int64, error) {
	res, err := tx.exec(ctx, `UPDATE outbox SET not_before = ?1
		WHERE state = 'pending' AND not_before > ?1 AND attempts > 0`, unix(now))
	if err != nil {
		return 0, fmt.Errorf("store: retry deferred mail: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: retry deferred mail: %w", wrap(err))
	}
	return n, nil
}

// MarkDead gives up on the pending mail, keeping the reason, and ends its
// claim. It yields
// ErrNotFound if no pending mail has the id.
func (tx *Tx) MarkDead(ctx context.Context, id int64, reason string) error {
	err := tx.execOne(ctx, `UPDATE outbox SET state = 'dead', last_error = ?,
		claimed_by = NULL, claimed_until = NULL WHERE id = ? AND state = 'pending'`, reason, id)
	if err != nil {
		return fmt.Errorf("store: mark outgoing %d dead: %w", id, err)
	}
	return nil
}

// OutboxStats counts the outbox's rows, for metrics.
type OutboxStats struct {
	Pending, Sent, Dead int64
	// Due counts the pending mails due at the time asked about.
	Due int64
	// OldestDue is the NotBefore of the longest-waiting due mail; zero
	// when none is due.
	OldestDue time.Time
}

// OutboxStats counts the outbox's rows by state, and the pending ones due
// at now.
func (r reader) OutboxStats(ctx context.Context, now time.Time) (OutboxStats, error) {
	var s OutboxStats
	var oldest sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT
		count(*) FILTER (WHERE state = 'pending'),
		count(*) FILTER (WHERE state = 'sent'),
		count(*) FILTER (WHERE state = 'dead'),
		count(*) FILTER (WHERE state = 'pending' AND not_before <= ?1),
		min(not_before) FILTER (WHERE state = 'pending' AND not_before <= ?1)
		FROM outbox`, unix(now),
	).Scan(&s.Pending, &s.Sent, &s.Dead, &s.Due, &oldest)
	if err != nil {
		return OutboxStats{}, fmt.Errorf("store: outbox stats: %w", wrap(err))
	}
	s.OldestDue = fromNullUnix(oldest)
	return s, nil
}

// HasOutgoing reports whether a mail with this Message-ID was ever queued,
// in any state: how the service makes a mail it writes once, such as a
// reminder, idempotent.
func (r reader) HasOutgoing(ctx context.Context, messageID string) (bool, error) {
	var n int
	err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE message_id = ?`, messageID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: has outgoing %q: %w", messageID, wrap(err))
	}
	return n > 0, nil
}
