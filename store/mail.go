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
}

// InboundSeen reports whether a message was already recorded, by its
// Message-ID or by its UID in the mailbox's UIDVALIDITY epoch. An empty
// messageID or a zero uid is not compared.
//
// Each condition is written on the column, repeating the WHERE of its
// partial index (inbound_message_id: message_id <> ”; inbound_uid:
// uid > 0) word for word: SQLite uses a partial index only when the query
// implies the index's WHERE, and a test of the parameter (?1 <> ”) does
// not, so both subqueries used to read the whole table (issue 15). The
// meaning is the same: the column equals the parameter, so it is empty or
// zero exactly when the parameter is.
func (r reader) InboundSeen(ctx context.Context, messageID, mailbox string, uidValidity, uid uint32) (bool, error) {
	var seen bool
	err := r.q.QueryRowContext(ctx, inboundSeenQuery, messageID, mailbox, uidValidity, uid).Scan(&seen)
	if err != nil {
		return false, fmt.Errorf("store: inbound seen %q: %w", messageID, wrap(err))
	}
	return seen, nil
}

const inboundSeenQuery = `SELECT
	EXISTS (SELECT 1 FROM inbound WHERE message_id = ?1 AND message_id <> '')
	OR EXISTS (SELECT 1 FROM inbound WHERE mailbox = ?2 AND uid_validity = ?3 AND uid = ?4 AND uid > 0)`

// RecordInbound records a message and returns its id. A message already
// recorded, by Message-ID or by UID, yields ErrDuplicate: the daemon's
// transaction then rolls back, so a message that raced past InboundSeen is
// still applied once.
func (tx *Tx) RecordInbound(ctx context.Context, in Inbound) (int64, error) {
	if in.Outcome == "" {
		return 0, fmt.Errorf("store: record inbound %q: empty outcome", in.MessageID)
	}
	var id int64
	err := tx.mayDuplicate(ctx, func() error {
		return tx.q.QueryRowContext(ctx, `
			INSERT INTO inbound (message_id, mailbox, uid_validity, uid, from_addr, token, game_id,
				outcome, detail, received_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			in.MessageID, in.Mailbox, in.UIDValidity, in.UID, NormalizeAddress(in.From), in.Token,
			nullID(in.GameID), in.Outcome, textDetail(in.Detail), unix(in.ReceivedAt),
		).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("store: record inbound %q: %w", in.MessageID, wrap(err))
	}
	return id, nil
}

// SetInboundOutcome records what became of an inbound message once it was
// handled. The daemon records the message first, so that the moves its
// commands make can name it, and its outcome last, in the same transaction.
func (tx *Tx) SetInboundOutcome(ctx context.Context, id int64, in Inbound) error {
	if in.Outcome == "" {
		return fmt.Errorf("store: set outcome of inbound %d: empty outcome", id)
	}
	err := tx.execOne(ctx, `UPDATE inbound SET token = ?, game_id = ?, outcome = ?, detail = ? WHERE id = ?`,
		in.Token, nullID(in.GameID), in.Outcome, textDetail(in.Detail), id)
	if err != nil {
		return fmt.Errorf("store: set outcome of inbound %d: %w", id, err)
	}
	return nil
}

// InboundByMessageID returns the record of the message with the
// Message-ID.
func (r reader) InboundByMessageID(ctx context.Context, messageID string) (Inbound, error) {
	var in Inbound
	var game sql.NullInt64
	var at int64
	err := r.q.QueryRowContext(ctx, `
		SELECT id, message_id, mailbox, uid_validity, uid, from_addr, token, game_id,
			outcome, detail, received_at
		FROM inbound WHERE message_id = ? AND message_id <> ''`, messageID,
	).Scan(&in.ID, &in.MessageID, &in.Mailbox, &in.UIDValidity, &in.UID, &in.From, &in.Token,
		&game, &in.Outcome, &in.Detail, &at)
	if err != nil {
		return Inbound{}, fmt.Errorf("store: inbound %q: %w", messageID, wrap(err))
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
	_, err := tx.exec(ctx, `
		INSERT INTO imap_cursor (mailbox, uid_validity, last_uid) VALUES (?, ?, ?)
		ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid`,
		mailbox, uidValidity, lastUID)
	if err != nil {
		return fmt.Errorf("store: set cursor of %s: %w", mailbox, err)
	}
	return nil
}

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
