package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Lease is a named right to do some work alone (a node's right to read
// the mailbox, say), held by Holder until Expires unless Holder renews it
// (AcquireLease). A lease's times are to the millisecond: it lasts
// seconds.
type Lease struct {
	Name   string
	Holder string
	// Acquired is when Holder took the lease: its renewals keep it.
	Acquired time.Time
	Expires  time.Time
}

// HeldAt reports whether the lease is held at now: it has a holder and
// has not expired.
func (l Lease) HeldAt(now time.Time) bool { return l.Holder != "" && now.Before(l.Expires) }

// AcquireLease takes the lease name for holder until now+ttl, or renews
// it if holder has it: it succeeds when the lease is free, expired, or
// already holder's, and then returns the lease and true. When another
// holds it and it has not expired at now, nothing changes and it returns
// the lease as it is (its holder and expiry) and false.
//
// It is one statement whose WHERE decides, so two nodes that try at once
// cannot both succeed: the database applies one upsert after the other,
// and the second sees the first's holder and expiry. now is the caller's
// clock (the store reads none): the nodes' clocks must agree to well
// within the ttl.
func (tx *Tx) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (Lease, bool, error) {
	if err := tx.writesShared(); err != nil {
		return Lease{}, false, err
	}
	if name == "" || holder == "" || ttl <= 0 {
		return Lease{}, false, fmt.Errorf("store: acquire lease %q for %q: need a name, a holder and a positive ttl (%s)", name, holder, ttl)
	}
	at, until := now.UnixMilli(), now.Add(ttl).UnixMilli()
	l := Lease{Name: name}
	var acquired, expires int64
	err := tx.q.QueryRowContext(ctx, `
		INSERT INTO leases (name, holder, acquired_ms, expires_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET
			acquired_ms = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_ms ELSE excluded.acquired_ms END,
			holder = excluded.holder,
			expires_ms = excluded.expires_ms
		WHERE leases.holder = excluded.holder OR leases.expires_ms <= ?
		RETURNING holder, acquired_ms, expires_ms`,
		name, holder, at, until, at).Scan(&l.Holder, &acquired, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// Another holds it: say who, and until when.
		cur, err := tx.Lease(ctx, name)
		if err != nil {
			return Lease{}, false, fmt.Errorf("store: acquire lease %q for %q: %w", name, holder, err)
		}
		return cur, false, nil
	case err != nil:
		return Lease{}, false, fmt.Errorf("store: acquire lease %q for %q: %w", name, holder, wrap(err))
	}
	l.Acquired, l.Expires = fromUnixMilli(acquired), fromUnixMilli(expires)
	return l, true, nil
}

// ReleaseLease gives the lease name up if holder has it, so that another
// may take it at once rather than when it expires; it reports whether
// holder had it. The holder must have stopped the work the lease guards
// first.
func (tx *Tx) ReleaseLease(ctx context.Context, name, holder string) (bool, error) {
	if err := tx.writesShared(); err != nil {
		return false, err
	}
	res, err := tx.exec(ctx, `DELETE FROM leases WHERE name = ? AND holder = ?`, name, holder)
	if err != nil {
		return false, fmt.Errorf("store: release lease %q of %q: %w", name, holder, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: release lease %q of %q: %w", name, holder, err)
	}
	return n > 0, nil
}

// Lease reads the lease name as it stands: who took it last and until
// when (see HeldAt); ErrNotFound if no one holds it or ever did, or its
// holder released it.
func (r reader) Lease(ctx context.Context, name string) (Lease, error) {
	l := Lease{Name: name}
	var acquired, expires int64
	err := r.q.QueryRowContext(ctx,
		`SELECT holder, acquired_ms, expires_ms FROM leases WHERE name = ?`, name,
	).Scan(&l.Holder, &acquired, &expires)
	if err != nil {
		return Lease{}, fmt.Errorf("store: lease %q: %w", name, wrap(err))
	}
	l.Acquired, l.Expires = fromUnixMilli(acquired), fromUnixMilli(expires)
	return l, nil
}

func fromUnixMilli(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
