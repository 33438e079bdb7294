package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Spend takes one unit from an address's bucket if fewer than max were
// taken in the window before now, and reports whether it did. Units older
// than the window are dropped on the way, so a bucket holds at most max
// rows and each call costs a bounded amount of work. In a game's
// transaction the count is taken under the address's lock (Spent), so
// two games mailing one address cannot both take its last unit.
func (tx *Tx) Spend(ctx context.Context, address, bucket string, now time.Time, window time.Duration, max int) (bool, error) {
	if tx.be.engine() == PostgreSQL {
		return tx.spendInOne(ctx, NormalizeAddress(address), bucket, now, window, max)
	}
	address, err := tx.budgetKey(ctx, NormalizeAddress(address))
	if err != nil {
		return false, err
	}
	n, err := tx.Spent(ctx, address, bucket, now, window)
	if err != nil {
		return false, err
	}
	if n >= max {
		return false, nil
	}
	if _, err := tx.exec(ctx, `INSERT INTO budget (address, bucket, at) VALUES (?, ?, ?)`,
		NormalizeAddress(address), bucket, unix(now)); err != nil {
		return false, fmt.Errorf("store: spend %s of %s: %w", bucket, NormalizeAddress(address), err)
	}
	return true, nil
}

// Note records one unit in an address's bucket whatever the count, and
// returns how many the window before now holds, this one included: for a
// limit that must stay tripped while a flood goes on.
func (tx *Tx) Note(ctx context.Context, address, bucket string, now time.Time, window time.Duration) (int, error) {
	if tx.be.engine() == PostgreSQL {
		return tx.noteInOne(ctx, NormalizeAddress(address), bucket, now, window)
	}
	address, err := tx.budgetKey(ctx, NormalizeAddress(address))
	if err != nil {
		return 0, err
	}
	if err := tx.lockAddress(ctx, NormalizeAddress(address)); err != nil {
		return 0, err
	}
	if _, err := tx.exec(ctx, `INSERT INTO budget (address, bucket, at) VALUES (?, ?, ?)`,
		NormalizeAddress(address), bucket, unix(now)); err != nil {
		return 0, fmt.Errorf("store: note %s of %s: %w", bucket, NormalizeAddress(address), err)
	}
	return tx.Spent(ctx, address, bucket, now, window)
}

// Spent counts the units taken from an address's bucket in the window
// before now, dropping older ones.
func (tx *Tx) Spent(ctx context.Context, address, bucket string, now time.Time, window time.Duration) (int, error) {
	if tx.be.engine() == PostgreSQL { // one statement (spentSQL)
		n, err := tx.SpentEach(ctx, []BudgetWindow{{Address: address, Bucket: bucket, Now: now, Window: window}})
		if err != nil {
			return 0, err
		}
		return n[0], nil
	}
	address, err := tx.budgetKey(ctx, NormalizeAddress(address))
	if err != nil {
		return 0, err
	}
	if err := tx.lockAddress(ctx, address); err != nil {
		return 0, err
	}
	since := unix(now.Add(-window))
	if _, err := tx.writing("budget").ExecContext(ctx, `DELETE FROM budget WHERE address = ? AND bucket = ? AND at <= ?`, address, bucket, since); err != nil {
		return 0, fmt.Errorf("store: budget %s of %s: %w", bucket, address, wrap(err))
	}
	var n int
	err = tx.q.QueryRowContext(ctx,
		`SELECT count(*) FROM budget WHERE address = ? AND bucket = ? AND at > ?`, address, bucket, since).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: budget %s of %s: %w", bucket, address, wrap(err))
	}
	return n, nil
}

// spendInOne is Spend on PostgreSQL, in one statement (spendSQL): the
// key, the units dropped, the count and the unit taken. It was four
// statements and up to three round trips, for most of the mails pbem
// queues (issue 40).
func (tx *Tx) spendInOne(ctx context.Context, address, bucket string, now time.Time, window time.Duration, max int) (bool, error) {
	key, args, err := tx.lockedKey(ctx, address)
	if err != nil {
		return false, err
	}
	var found string
	var n int
	err = tx.writing("budget").QueryRowContext(ctx, spendSQL(key), spendArgs(args, bucket, now, window, max)...).Scan(&found, &n)
	if err != nil {
		return false, fmt.Errorf("store: spend %s of %s: %w", bucket, address, wrap(err))
	}
	put(&tx.memo.budgetKeys, address, found)
	return n < max, nil
}

// spendSQL drops the units of a key's bucket older than a window, counts
// those in it and takes one if they are fewer than a maximum, and
// returns the key and the count before the unit (spendArgs). Every part
// of the statement sees the one snapshot taken as it starts: the count
// is of units newer than the window's start, which the DELETE beside it
// does not touch, and the INSERT is not counted. In a game's transaction
// the address's lock goes first, in the statement before (lockedKey), so
// that the snapshot holds every unit another game's transaction took.
func spendSQL(key string) string {
	return budgetWindowSQL(key) + `,
		spent AS (SELECT count(*) AS n FROM budget WHERE address = (SELECT key FROM k) AND bucket = ? AND at > ?),
		taken AS (INSERT INTO budget (address, bucket, at) SELECT key, ?, ? FROM k, spent WHERE spent.n < ?)
		SELECT key, n FROM k, spent`
}

// spendArgs are spendSQL's arguments after the key's.
func spendArgs(keyArgs []any, bucket string, now time.Time, window time.Duration, max int) []any {
	since := unix(now.Add(-window))
	return append(keyArgs, bucket, since, bucket, since, bucket, unix(now), max)
}

// spentSQL drops the units of a key's bucket older than a window and
// counts those in it, and returns the key and the count (spentArgs).
func spentSQL(key string) string {
	return budgetWindowSQL(key) + `
		SELECT key, (SELECT count(*) FROM budget WHERE address = (SELECT key FROM k) AND bucket = ? AND at > ?) FROM k`
}

// spentArgs are spentSQL's arguments after the key's.
func spentArgs(keyArgs []any, bucket string, now time.Time, window time.Duration) []any {
	since := unix(now.Add(-window))
	return append(keyArgs, bucket, since, bucket, since)
}

// BudgetWindow names what Spent counts: the units of an address's bucket
// in the window before Now. Max is what SpendEach spends a unit below.
type BudgetWindow struct {
	Address, Bucket string
	Now             time.Time
	Window          time.Duration
	Max             int
}

// SpentEach is Spent of each window, in its order. On PostgreSQL each
// is one statement, and they go together, in one round trip: the limits
// on a game's invitations ask four budgets of each player invited, each
// the key's look-up, the drop and the count, 24 round trips for a game
// of four (issue 40).
func (tx *Tx) SpentEach(ctx context.Context, windows []BudgetWindow) ([]int, error) {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		out := make([]int, len(windows))
		for i, w := range windows {
			n, err := tx.Spent(ctx, w.Address, w.Bucket, w.Now, w.Window)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	return tx.budgetBatch(ctx, p, "budget", windows, func(w BudgetWindow, key string, args []any) (string, []any) {
		return spentSQL(key), spentArgs(args, w.Bucket, w.Now, w.Window)
	})
}

// SpendEach is Spend of each window, below its Max, in its order, and
// says of each whether it took its unit. Each sees the units the ones
// before it took. On PostgreSQL the statements go together, in one
// round trip: a game's invitations spend four budgets of each player
// invited (issue 40).
func (tx *Tx) SpendEach(ctx context.Context, windows []BudgetWindow) ([]bool, error) {
	out := make([]bool, len(windows))
	p, ok := tx.tx.(*pgTx)
	if !ok {
		for i, w := range windows {
			took, err := tx.Spend(ctx, w.Address, w.Bucket, w.Now, w.Window, w.Max)
			if err != nil {
				return nil, err
			}
			out[i] = took
		}
		return out, nil
	}
	counts, err := tx.budgetBatch(ctx, p, "spend", windows, func(w BudgetWindow, key string, args []any) (string, []any) {
		return spendSQL(key), spendArgs(args, w.Bucket, w.Now, w.Window, w.Max)
	})
	if err != nil {
		return nil, err
	}
	for i, n := range counts {
		out[i] = n < windows[i].Max
	}
	return out, nil
}

// budgetBatch runs a statement of each window, which statement makes
// from its key's SQL and arguments (lockedKey), in one round trip on
// PostgreSQL, one after the other: each returns its key, which the
// transaction keeps, and a count.
func (tx *Tx) budgetBatch(ctx context.Context, p *pgTx, what string, windows []BudgetWindow,
	statement func(w BudgetWindow, key string, args []any) (string, []any)) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	batch := make([]batchQuery, len(windows))
	for i, w := range windows {
		key, args, err := tx.lockedKey(ctx, NormalizeAddress(w.Address))
		if err != nil {
			return nil, err
		}
		q, args := statement(w, key, args)
		tx.m.query(q, args)
		tx.memo.writes("budget")
		batch[i] = batchQuery{p.rb.rebind(q), flags(args)}
	}
	out := make([]int, len(windows))
	for i, read := range p.batchReads(ctx, batch) {
		var found string
		if err := p.mem.queryRow(read).Scan(&found, &out[i]); err != nil {
			return nil, fmt.Errorf("store: %s %s of %s: %w", what, windows[i].Bucket, NormalizeAddress(windows[i].Address), wrap(err))
		}
		put(&tx.memo.budgetKeys, NormalizeAddress(windows[i].Address), found)
	}
	return out, nil
}

// noteInOne is Note on PostgreSQL, in one statement (as spendInOne):
// the count, of the snapshot the statement starts with, does not hold
// the unit the statement adds, which is counted apart.
func (tx *Tx) noteInOne(ctx context.Context, address, bucket string, now time.Time, window time.Duration) (int, error) {
	key, args, err := tx.lockedKey(ctx, address)
	if err != nil {
		return 0, err
	}
	at, since := unix(now), unix(now.Add(-window))
	var found string
	var n int
	err = tx.writing("budget").QueryRowContext(ctx, budgetWindowSQL(key)+`,
		noted AS (INSERT INTO budget (address, bucket, at) SELECT key, ?, ? FROM k)
		SELECT key, (SELECT count(*) FROM budget WHERE address = k.key AND bucket = ? AND at > ?) FROM k`,
		append(args, bucket, since, bucket, at, bucket, since)...).Scan(&found, &n)
	if err != nil {
		return 0, fmt.Errorf("store: note %s of %s: %w", bucket, address, wrap(err))
	}
	put(&tx.memo.budgetKeys, address, found)
	if at > since {
		n++ // the unit noted, in the window
	}
	return n, nil
}

// budgetWindowSQL begins spendInOne's and noteInOne's statement: k, the
// budget key (key, the SQL lockedKey gives, with its arguments first),
// and the drop of the bucket's units before the window (the bucket and
// the window's start next).
func budgetWindowSQL(key string) string {
	return `WITH k AS (SELECT ` + key + ` AS key),
		dropped AS (DELETE FROM budget WHERE address = (SELECT key FROM k) AND bucket = ? AND at <= ?)`
}

// lockedKey is the budget key of address for a statement that writes
// its budget or its mailbox's row, under its lock in a game's
// transaction on PostgreSQL (lockAddress). key is the statement's SQL for
// it and args its arguments: a parameter, when the transaction knows the
// key (budgetKey), else an expression that finds it (answeredKeySQL),
// whose lock is then of the key the same expression finds. Nothing waits
// for the lock's answer: it goes with the statement (Tx.laterLock).
func (tx *Tx) lockedKey(ctx context.Context, address string) (key string, args []any, err error) {
	if k, ok := tx.memo.budgetKeys[address]; ok {
		return `?`, []any{k}, tx.lockAddress(ctx, k)
	}
	args = []any{address, address}
	if tx.game != 0 && tx.be.engine() == PostgreSQL {
		err = tx.laterLock(ctx, "lock an address", answeredLockSQL, addressTables, args...)
	}
	return answeredKeySQL, args, err
}

// The budget's address is whatever key the caller counts by: the daemon
// passes a mailbox's key (internal/mailbox), so that every spelling of
// one mailbox spends one budget, and a key of its own for a limit of the
// whole service. The mailbox of an address added to a player's counts as
// his (budgetKey, store/addresses.go): one person, one budget.

// SetNoInvitations records that the mailbox wants no more invitations
// (`never`), or no longer minds them. mailbox is the key the daemon makes
// of an address (internal/mailbox): a `never` covers every spelling.
func (tx *Tx) SetNoInvitations(ctx context.Context, mailbox string, never bool) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	mailbox, err := tx.budgetKey(ctx, NormalizeAddress(mailbox))
	if err != nil {
		return err
	}
	v := 0
	if never {
		v = 1
	}
	if _, err := tx.exec(ctx, `
		INSERT INTO mailboxes (mailbox, no_invitations) VALUES (?, ?)
		ON CONFLICT (mailbox) DO UPDATE SET no_invitations = excluded.no_invitations`, mailbox, v); err != nil {
		return fmt.Errorf("store: no invitations for %s: %w", mailbox, err)
	}
	return nil
}

// answeredColumn is whether the mailbox given twice answered pbem, as
// Answered reads it, for a statement's RETURNING (Tx.Receive).
const answeredColumn = `(SELECT count(answered_at) > 0 FROM mailboxes WHERE mailbox = coalesce((` + budgetKeySQL + `), ?))`

// answeredKeySQL finds the budget key of the mailbox given twice;
// answeredLockSQL takes its lock (lockAddress).
const (
	answeredKeySQL  = `coalesce((` + budgetKeySQL + `), ?)`
	answeredLockSQL = addressLockBefore + answeredKeySQL + addressLockAfter
)

// MarkAnswered records that pbem read a mail only the mailbox's owner
// could have sent (the daemon decides which: docs/security.md, "One
// mailbox, one budget"), unless it knew so already. It commutes: every
// transaction that marks a mailbox leaves it answered, and the first
// time stays.
//
// The mailbox's budget key is found by the statements themselves
// (budgetKeySQL), unless the transaction knows it already: then nothing
// waits for an answer, and on PostgreSQL the mark costs no round trip of
// its own. It was a look-up and a write for nearly every command (issue
// 40).
func (tx *Tx) MarkAnswered(ctx context.Context, mailbox string, now time.Time) error {
	mailbox = NormalizeAddress(mailbox)
	if tx.memo.answered[mailbox] {
		return nil // answered before: the statement would change nothing
	}
	key, args, err := tx.lockedKey(ctx, mailbox)
	if err != nil {
		return err
	}
	// Nothing waits for its answer (Tx.later). The statement only ever
	// makes a mailbox answered, which changes nothing the memo keeps but
	// that (laterWriting, of no table).
	if err := tx.laterWriting(ctx, "mark a mailbox answered", `
		INSERT INTO mailboxes (mailbox, answered_at) VALUES (`+key+`, ?)
		ON CONFLICT (mailbox) DO UPDATE SET answered_at = excluded.answered_at WHERE mailboxes.answered_at IS NULL`,
		nil, append(args, unix(now))...); err != nil {
		return err
	}
	put(&tx.memo.answered, mailbox, true)
	return nil
}

// Answered tells whether the mailbox ever answered pbem (MarkAnswered):
// InviteStatus's second answer, which is all a mail's limit asks.
func (r reader) Answered(ctx context.Context, mailbox string) (bool, error) {
	_, answered, err := r.InviteStatus(ctx, mailbox)
	return answered, err
}

// InviteStatus tells what the mailbox allows: whether it refused all
// invitations (`never`), and whether it ever answered pbem (MarkAnswered).
func (r reader) InviteStatus(ctx context.Context, mailbox string) (never, answered bool, err error) {
	mailbox = NormalizeAddress(mailbox)
	// The budget key (budgetKey) and the status in one statement: every
	// mail pbem queues asks (issue 40).
	err = r.q.QueryRowContext(ctx, `
		SELECT coalesce(max(no_invitations), 0), count(answered_at) > 0 FROM mailboxes
		WHERE mailbox = coalesce((`+budgetKeySQL+`), ?)`,
		mailbox, mailbox).Scan(&never, &answered)
	if err != nil {
		return false, false, fmt.Errorf("store: invite status of %s: %w", mailbox, wrap(err))
	}
	return never, answered, nil
}

// FreeAt tells when an address's bucket will hold fewer than below units
// in the window, if no more are taken: now, if it already does. It is
// when the below-th newest unit leaves the window.
func (tx *Tx) FreeAt(ctx context.Context, address, bucket string, now time.Time, window time.Duration, below int) (time.Time, error) {
	address, err := tx.budgetKey(ctx, NormalizeAddress(address))
	if err != nil {
		return time.Time{}, err
	}
	if below < 1 {
		below = 1
	}
	var at int64
	err = tx.q.QueryRowContext(ctx,
		`SELECT at FROM budget WHERE address = ? AND bucket = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?`,
		address, bucket, unix(now.Add(-window)), below-1).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return now, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: budget %s of %s: %w", bucket, address, wrap(err))
	}
	return fromUnix(at).Add(window), nil
}
