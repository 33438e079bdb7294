package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// The bounce tables (migration 00022) are written from any transaction:
// a game's (a bounce handled under its game), the outbox's (a refusal at
// SMTP time) or a shared one. Each write is one INSERT ... ON CONFLICT or
// DELETE on a row keyed by the address, which two transactions can run
// at once without losing either's effect, so they take no scope.

// BounceKey returns the secret that signs bounce addresses, making it on
// first use: 256 random bits, kept in the database so that every node
// and every restart signs alike.
func (s *Store) BounceKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.Tx(ctx, func(tx *Tx) error {
		fresh := make([]byte, 32)
		if _, err := rand.Read(fresh); err != nil {
			return fmt.Errorf("store: bounce key: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO bounce_key (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`,
			hex.EncodeToString(fresh)); err != nil {
			return fmt.Errorf("store: bounce key: %w", err)
		}
		var secret string
		if err := tx.q.QueryRowContext(ctx, `SELECT secret FROM bounce_key WHERE id = 1`).Scan(&secret); err != nil {
			return fmt.Errorf("store: bounce key: %w", wrap(err))
		}
		var err error
		key, err = hex.DecodeString(secret)
		return err
	})
	return key, err
}

// Unreachable is an address that bounced: since when, the status that
// made it so, whether the daemon has acted on it, and when pbem last
// sent it a probe (zero for never).
type Unreachable struct {
	Address  string
	Since    time.Time
	Status   string
	Handled  bool
	ProbedAt time.Time
}

// unixDay is the day of t, counted in days since 1970 (UTC).
func unixDay(t time.Time) int64 { return t.Unix() / 86400 }

// RecordBounce records a bounce of address at at: a hard one makes it
// unreachable at once; a soft one counts its day, and makes it
// unreachable once softDays distinct days have one. became says whether
// this bounce made it unreachable (false when it already was or still
// is reachable).
func (tx *Tx) RecordBounce(ctx context.Context, address string, hard bool, status string, at time.Time, softDays int) (became bool, err error) {
	address = NormalizeAddress(address)
	if !hard {
		if _, err := tx.exec(ctx, `INSERT INTO bounce_days (address, day) VALUES (?, ?) ON CONFLICT (address, day) DO NOTHING`,
			address, unixDay(at)); err != nil {
			return false, fmt.Errorf("store: soft bounce of %s: %w", address, err)
		}
		var days int
		if err := tx.q.QueryRowContext(ctx, `SELECT count(*) FROM bounce_days WHERE address = ?`, address).Scan(&days); err != nil {
			return false, fmt.Errorf("store: soft bounces of %s: %w", address, wrap(err))
		}
		if days < softDays {
			return false, nil
		}
	}
	res, err := tx.exec(ctx, `INSERT INTO unreachable (address, since, status) VALUES (?, ?, ?) ON CONFLICT (address) DO NOTHING`,
		address, unix(at), status)
	if err != nil {
		return false, fmt.Errorf("store: unreachable %s: %w", address, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: unreachable %s: %w", address, err)
	}
	return n == 1, nil
}

// UnreachableAddress returns the address's record, or ErrNotFound when it
// is reachable.
func (r reader) UnreachableAddress(ctx context.Context, address string) (Unreachable, error) {
	u := Unreachable{Address: NormalizeAddress(address)}
	var since int64
	var handled int
	var probed sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT since, status, handled, probed_at FROM unreachable WHERE address = ?`, u.Address).
		Scan(&since, &u.Status, &handled, &probed)
	if err != nil {
		return Unreachable{}, fmt.Errorf("store: unreachable %s: %w", u.Address, wrap(err))
	}
	u.Since, u.Handled, u.ProbedAt = fromUnix(since), handled == 1, fromNullUnix(probed)
	return u, nil
}

// UnreachableAmong returns the records of those of the addresses that
// are unreachable, by normalized address; an address missing from the
// map is reachable. It is UnreachableAddress for a whole batch of the
// outbox's mail in one statement, rather than one per mail (issue 40).
func (r reader) UnreachableAmong(ctx context.Context, addresses []string) (map[string]Unreachable, error) {
	out := map[string]Unreachable{}
	if len(addresses) == 0 {
		return out, nil
	}
	norm := make([]string, 0, len(addresses))
	for _, a := range addresses {
		if a = NormalizeAddress(a); !slices.Contains(norm, a) {
			norm = append(norm, a)
		}
	}
	in, arg, err := addressesIn(r.be.engine(), norm)
	if err != nil {
		return nil, fmt.Errorf("store: unreachable among %d addresses: %w", len(norm), err)
	}
	rows, err := r.q.QueryContext(ctx, `SELECT address, since, status, handled, probed_at FROM unreachable WHERE address `+in, arg)
	if err != nil {
		return nil, fmt.Errorf("store: unreachable among %d addresses: %w", len(norm), wrap(err))
	}
	defer rows.Close()
	for rows.Next() {
		var u Unreachable
		var since int64
		var handled int
		var probed sql.NullInt64
		if err := rows.Scan(&u.Address, &since, &u.Status, &handled, &probed); err != nil {
			return nil, fmt.Errorf("store: unreachable among %d addresses: %w", len(norm), wrap(err))
		}
		u.Since, u.Handled, u.ProbedAt = fromUnix(since), handled == 1, fromNullUnix(probed)
		out[u.Address] = u
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: unreachable among %d addresses: %w", len(norm), wrap(err))
	}
	return out, nil
}

// addressesIn is a condition "IN (…)" or "= ANY (…)", to follow a column,
// that matches the addresses, and the argument it takes: backend.idsIn
// for strings.
func addressesIn(e Engine, addresses []string) (string, any, error) {
	if e == PostgreSQL {
		return `= ANY (?)`, addresses, nil
	}
	list, err := json.Marshal(addresses)
	if err != nil {
		return "", nil, err
	}
	return `IN (SELECT value FROM json_each(?))`, string(list), nil
}

// IsUnreachable says whether the address bounced and has not written
// since.
func (r reader) IsUnreachable(ctx context.Context, address string) (bool, error) {
	_, err := r.UnreachableAddress(ctx, address)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// UnhandledUnreachable lists the addresses made unreachable that the
// daemon has not acted on yet, the oldest first, at most limit.
func (r reader) UnhandledUnreachable(ctx context.Context, limit int) ([]Unreachable, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT address, since, status FROM unreachable WHERE handled = 0 ORDER BY since, address LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: unhandled unreachable: %w", wrap(err))
	}
	defer rows.Close()
	var out []Unreachable
	for rows.Next() {
		var u Unreachable
		var since int64
		if err := rows.Scan(&u.Address, &since, &u.Status); err != nil {
			return nil, fmt.Errorf("store: unhandled unreachable: %w", err)
		}
		u.Since = fromUnix(since)
		out = append(out, u)
	}
	return out, wrap(rows.Err())
}

// HandledUnreachable records that the daemon acted on the address's
// unreachability.
func (tx *Tx) HandledUnreachable(ctx context.Context, address string) error {
	address = NormalizeAddress(address)
	if err := tx.execOne(ctx, `UPDATE unreachable SET handled = 1 WHERE address = ?`, address); err != nil {
		return fmt.Errorf("store: handled unreachable %s: %w", address, err)
	}
	return nil
}

// Probed records that pbem sent the unreachable address a probe at at.
func (tx *Tx) Probed(ctx context.Context, address string, at time.Time) error {
	address = NormalizeAddress(address)
	if err := tx.execOne(ctx, `UPDATE unreachable SET probed_at = ? WHERE address = ?`, unix(at), address); err != nil {
		return fmt.Errorf("store: probed %s: %w", address, err)
	}
	return nil
}

// Reachable forgets the address's bounces: its player wrote from it.
// was says whether it was unreachable.
func (tx *Tx) Reachable(ctx context.Context, address string) (was bool, err error) {
	address = NormalizeAddress(address)
	// Nearly every address that writes has no bounce to forget: one
	// read says so, where the two deletes were two writes (issue 40).
	// The same statement reads whose address it is (PlayerOf), which
	// the transaction keeps: the daemon asks that next of the same
	// sender. Receive has read both of its mail's sender already.
	any, known := tx.memo.bounced[address]
	if !known {
		var sender senderRow
		if err := tx.q.QueryRowContext(ctx, `SELECT `+reachableColumns("?1"), address).Scan(&sender.bounced, &sender.player); err != nil {
			return false, fmt.Errorf("store: reachable %s: %w", address, wrap(err))
		}
		tx.memo.keepSender(address, sender)
		any = sender.bounced
	}
	if !any {
		return false, nil
	}
	if _, err := tx.exec(ctx, `DELETE FROM bounce_days WHERE address = ?`, address); err != nil {
		return false, fmt.Errorf("store: reachable %s: %w", address, err)
	}
	res, err := tx.exec(ctx, `DELETE FROM unreachable WHERE address = ?`, address)
	if err != nil {
		return false, fmt.Errorf("store: reachable %s: %w", address, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: reachable %s: %w", address, err)
	}
	return n > 0, nil
}

// reachableColumns reads what Reachable asks of the address that the
// expression address gives: whether it has a bounce to forget, and whose
// address it is (an alias's player, or NULL).
func reachableColumns(address string) string {
	return `EXISTS (SELECT 1 FROM bounce_days WHERE address = ` + address + `)
		OR EXISTS (SELECT 1 FROM unreachable WHERE address = ` + address + `),
		(SELECT address FROM address_aliases WHERE alias = ` + address + `)`
}

// senderRow is what reachableColumns reads.
type senderRow struct {
	bounced bool
	player  sql.NullString
}

// keepSender keeps what reachableColumns read of the address: whether it
// has bounces (Reachable) and whose it is (PlayerOf).
func (m *txMemo) keepSender(address string, r senderRow) {
	put(&m.bounced, address, r.bounced)
	put(&m.playerOf, address, cmp.Or(r.player.String, address))
}

// claimedUnreachable is what a claim on PostgreSQL read of its mails'
// recipients in the unreachable table (claimSQL): every recipient, and
// the row of each it holds, which the transaction then keeps for
// UnreachableAmong.
type claimedUnreachable struct {
	rows map[string]Unreachable
	read []string
	cur  unreachableScan // the row being scanned
}

// unreachableScan is an unreachable row as a LEFT JOIN reads it.
type unreachableScan struct {
	address, status        sql.NullString
	since, handled, probed sql.NullInt64
}

// scanner is sc with the unreachable table's columns of claimSQL after
// the mail's own, into c.
func (c *claimedUnreachable) scanner(sc interface{ Scan(...any) error }) interface{ Scan(...any) error } {
	return scanExtra{sc, []any{&c.cur.address, &c.cur.since, &c.cur.status, &c.cur.handled, &c.cur.probed}}
}

// keep keeps the row scanned, of the mail to rcpt.
func (c *claimedUnreachable) keep(rcpt string) {
	c.read = append(c.read, NormalizeAddress(rcpt))
	if u := c.cur; u.address.Valid {
		put(&c.rows, u.address.String, Unreachable{Address: u.address.String, Since: fromUnix(u.since.Int64),
			Status: u.status.String, Handled: u.handled.Int64 == 1, ProbedAt: fromNullUnix(u.probed)})
	}
	c.cur = unreachableScan{}
}

// scanExtra scans a row into the destinations given, then into extra.
type scanExtra struct {
	sc    interface{ Scan(...any) error }
	extra []any
}

func (s scanExtra) Scan(dest ...any) error { return s.sc.Scan(append(dest, s.extra...)...) }

// UnreachableAmong is reader.UnreachableAmong, from what the transaction
// keeps when it holds every address asked: what its claim read of its
// mails' recipients (claimSQL), which the outbox asks next.
func (tx *Tx) UnreachableAmong(ctx context.Context, addresses []string) (map[string]Unreachable, error) {
	out := map[string]Unreachable{}
	for _, a := range addresses {
		a = NormalizeAddress(a)
		k, ok := tx.memo.unreachable[a]
		if !ok {
			return tx.reader.UnreachableAmong(ctx, addresses)
		}
		if k.found {
			out[a] = k.u
		}
	}
	return out, nil
}
