package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// This file is a PostgreSQL write transaction on one connection, whose
// writes that nobody waits for travel with the next statement (issue 40:
// a command was about 33 round trips to the server, each a system call
// and a wake-up on both sides, and the committer waits out every one).
//
// A write method whose statement returns nothing the caller uses (a
// seat's deadline, the cursor, a mail for the outbox) gives it to
// Tx.later rather than running it. On PostgreSQL it waits in the
// transaction's pipeline, and goes to the server in one pgx batch with
// the next statement that must go after it: the next write whose rows
// are counted, a read that could see it or that a waiting BEGIN or lock
// must precede, a write whose rows are read (RETURNING), a savepoint,
// the COMMIT. Rows read in a batch are handed to their caller as
// database/sql's (pgbuffered.go). Any other read goes before the
// waiting writes, by itself (waitsFor). Order is kept wherever it can
// tell: writes never overtake each other, a lock given to later is
// taken before anything it guards after it, and a read of a table sees
// every write to it before it that it could see.
//
// A write that fails in a batch fails the batch, and the transaction
// with it: PostgreSQL refuses everything after a failed statement until
// a rollback. Its error is kept (pgTx.failure), and is the error of the
// savepoint or the transaction it failed in (Tx.cause), rather than the
// error of whichever statement came next and was refused for it.
//
// On SQLite there is nothing to gain, a statement being a call into
// the same process, and later runs the write at once.

// pgTx is a write transaction on one PostgreSQL connection, begun by
// postgresBackend.begin. Its querier methods take queries with
// PostgreSQL's placeholders (rebound, as every querier of the backend).
type pgTx struct {
	conn *sql.Conn
	// mem gives the rows of a read that went in a batch to its caller
	// (pgbuffered.go).
	mem bufferedDB
	// pending are the writes waiting for the next statement, in order.
	pending []pendingWrite
	// failure is why the last batch failed, until a rollback to a
	// savepoint makes the transaction usable again.
	failure error
	// unsent are the savepoints rolled back before their SAVEPOINT was
	// sent, innermost last, whose RELEASE is not sent either (control).
	unsent []string
	rb     *rebinder
}

// pendingWrite is a write waiting in a pgTx: its statement, already
// rebound, what it is, for its error, and the table it writes ("" for
// a statement that must go before any other: BEGIN, a lock). key names
// the one row a keyed write sets whole (laterKeyed), else it is nil.
// guards, of a lock, are the tables it guards (laterLock), which a
// statement that names none of them may go before; nil for a lock that
// guards everything (pbem's).
type pendingWrite struct {
	query  string
	args   []any
	what   string
	table  string
	key    any
	guards []string
	// more are the other rows of a keyed write of seats' rows that
	// joined it (join), written in the same statement (seatRowsSQL).
	more []keyedRow
	// done, if not nil, is told the write's command tag once the server
	// ran it (laterThen).
	done func(pgconn.CommandTag)
}

// keyedRow is a row of a keyed write: its key, and the values of the
// write's statement for it.
type keyedRow struct {
	key  any
	args []any
}

// seenBy reports whether a read, query, must go after w: a read that
// names the table w writes, or one w's lock guards. A seat's row
// written whole (laterSeat's keyed write) is seen only by a statement
// that reads one of the columns it sets (seesSeats): a read of the
// game's seats for their addresses alone (Tx.SeatedPlayers) reads the
// same whether it runs before or after.
func (w pendingWrite) seenBy(query string) bool {
	switch {
	case w.table == "" && w.guards == nil:
		return true
	case w.table == "":
		for _, t := range w.guards {
			if strings.Contains(query, t) {
				return true
			}
		}
		return false
	case w.table == "seats" && w.key != nil:
		return seesSeats("SELECT", query)
	}
	return strings.Contains(query, w.table)
}

// blocksMerge reports whether w, waiting after a keyed write of table,
// keeps a later write of the same row from taking the earlier one's
// place: BEGIN or a lock that guards table, which the row's write must
// not go before, or a write of table that is not another row's keyed
// write.
func (w pendingWrite) blocksMerge(table string) bool {
	if w.table == "" {
		return w.guards == nil || slices.Contains(w.guards, table)
	}
	return w.table == table && w.key == nil
}

// rowsArgs are the arguments of a keyed write of several rows
// (seatRowsSQL): each row's, in order.
func (w pendingWrite) rowsArgs() []any {
	out := make([]any, 0, len(w.args)*(len(w.more)+1))
	out = append(out, w.args...)
	for _, m := range w.more {
		out = append(out, m.args...)
	}
	return out
}

// later queues a write for the transaction's next round trip.
func (p *pgTx) later(what, query string, args []any) {
	p.laterKeyed(nil, what, query, args)
}

// laterThen is later with done, told the write's command tag once the
// server ran it (sendBatch).
func (p *pgTx) laterThen(what, query string, args []any, done func(pgconn.CommandTag)) {
	p.later(what, query, args)
	p.pending[len(p.pending)-1].done = done
}

// laterLock queues a lock that guards the tables named (an address's,
// lockAddress): a read of other tables may go before it.
func (p *pgTx) laterLock(what, query string, guards []string, args []any) {
	p.pending = append(p.pending, pendingWrite{query: p.rb.rebind(query), args: flags(args), what: what, guards: guards})
}

// laterKeyed is later for a write that sets the row named key (not
// nil) to what args say, whatever it was: a later write of the same row
// may take its place (merge).
func (p *pgTx) laterKeyed(key any, what, query string, args []any) {
	table, ok := writtenTable(query)
	if !ok {
		table = ""
	}
	p.pending = append(p.pending, pendingWrite{query: p.rb.rebind(query), args: flags(args), what: what, table: table, key: key})
}

// merge gives a write of the row key still waiting the values args,
// of the same statement, and reports whether it did: the row is then
// written once, with what the later write sets, at the earlier write's
// place in the order. It may, when nothing after that place could see
// the difference: no BEGIN or lock that guards the row's table (an
// address's lock does not), and no write of the same table but the
// keyed writes of other rows. Otherwise the caller queues the write.
func (p *pgTx) merge(key any, args []any) bool {
	at, row := -1, -1 // the write, and its row in more (-1: its first)
	for i, w := range p.pending {
		if w.key == key {
			at, row = i, -1
		}
		for j, m := range w.more {
			if m.key == key {
				at, row = i, j
			}
		}
	}
	if at < 0 {
		return false
	}
	for _, w := range p.pending[at+1:] {
		if w.blocksMerge(p.pending[at].table) {
			return false
		}
	}
	if row >= 0 {
		p.pending[at].more[row].args = flags(args)
	} else {
		p.pending[at].args = flags(args)
	}
	return true
}

// join adds the row key, a seat's, to the keyed write of the same
// game's seats' rows that waits last, if one does, and reports whether
// it did: the rows then go in one statement (seatRowsSQL), where each
// was a statement, and a round's end that writes each seat's new
// decision writes them all at once. Nothing waits between that write and
// this one, so the order of the writes is kept. The caller has tried
// merge first: the row is in no write that could take these values.
func (p *pgTx) join(key seatKey, args []any) bool {
	if len(p.pending) == 0 {
		return false
	}
	last := &p.pending[len(p.pending)-1]
	if k, ok := last.key.(seatKey); !ok || k.game != key.game || len(last.more)+1 >= maxSeatRows {
		return false
	}
	last.more = append(last.more, keyedRow{key: key, args: flags(args)})
	return true
}

// waitsFor reports whether query must go after the pending writes: a
// read goes before them, in a round trip of its own, when none of them
// is seen by it (pendingWrite.seenBy): it names none of the tables they
// write, but for a seat's row written whole, whose columns it does not
// read, and they hold no BEGIN or lock but an address's, whose tables it
// does not read; it then reads nothing they change (the schema has no
// views, triggers or cascades that would read or write a table a
// statement does not name). A statement that writes, or locks rows,
// never overtakes them.
func (p *pgTx) waitsFor(query string) bool {
	return p.mustFollow(query) > 0
}

// mustFollow is how many of the pending writes, from the first, query
// must go after: all of them for a statement that writes or locks rows,
// else up to the last one the read could see (pendingWrite.seenBy). The
// writes after that one wait on, in their order, for a later statement:
// the read reads nothing they change. A move's read of its events goes
// after the events' insert, and a seat's row written after it still
// waits for the seat's next write to take its place (merge).
func (p *pgTx) mustFollow(query string) int {
	if len(p.pending) == 0 {
		return 0
	}
	q := strings.TrimLeft(query, " \t\r\n")
	if len(q) < 6 || !strings.EqualFold(q[:6], "SELECT") ||
		strings.Contains(q, " FOR ") || strings.Contains(q, "pg_advisory") {
		return len(p.pending)
	}
	for i := len(p.pending) - 1; i >= 0; i-- {
		if p.pending[i].seenBy(q) {
			return i + 1
		}
	}
	return 0
}

// send sends the pending writes and then query, with args, in one
// batch, and returns query's result: one round trip (two the first time
// a statement is met on the connection, which pgx then prepares). With
// nothing pending, query runs by itself.
func (p *pgTx) send(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if len(p.pending) == 0 {
		return p.conn.ExecContext(ctx, query, args...)
	}
	tag, err := p.batch(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(tag.RowsAffected()), nil
}

// batch sends the pending writes, and then query if it is not "", in
// one pgx batch, and returns query's command tag. The error of a
// pending write that fails is the transaction's failure.
func (p *pgTx) batch(ctx context.Context, query string, args ...any) (tag pgconn.CommandTag, err error) {
	var qs []batchQuery
	if query != "" {
		qs = []batchQuery{{query, args}}
	}
	err = p.sendBatch(ctx, len(p.pending), qs, func(_ *pgx.Conn, br pgx.BatchResults) (err error) {
		if query != "" {
			tag, err = br.Exec()
		}
		return err
	})
	return tag, err
}

// sendBatch sends the first n pending writes and then qs, in one pgx
// batch, and reads the writes' results: the error of one that fails is
// the transaction's failure, and sendBatch's. Then results reads qs's.
// The writes after the first n wait on.
func (p *pgTx) sendBatch(ctx context.Context, n int, qs []batchQuery, results func(*pgx.Conn, pgx.BatchResults) error) error {
	pending := p.pending[:n:n]
	p.pending = p.pending[n:]
	if len(p.pending) == 0 {
		p.pending = nil
	}
	return p.conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: a pipeline needs pgx's connection, not %T", dc)
		}
		b := &pgx.Batch{}
		for _, w := range pending {
			if len(w.more) > 0 {
				b.Queue(seatRowsSQL[len(w.more)+1], w.rowsArgs()...)
				continue
			}
			b.Queue(w.query, w.args...)
		}
		for _, q := range qs {
			b.Queue(q.query, q.args...)
		}
		br := c.Conn().SendBatch(ctx, b)
		var first error
		for _, w := range pending {
			tag, err := br.Exec()
			if err != nil {
				first = fmt.Errorf("store: %s: %w", w.what, wrap(err))
				p.failure = first
				break
			}
			if w.done != nil {
				w.done(tag)
			}
		}
		if first == nil {
			first = results(c.Conn(), br)
		}
		if err := br.Close(); first == nil {
			first = err
		}
		return first
	})
}

// flush sends the pending writes by themselves, before a statement that
// cannot go in their batch.
func (p *pgTx) flush(ctx context.Context) error {
	if len(p.pending) == 0 {
		return nil
	}
	_, err := p.batch(ctx, "")
	return err
}

func (p *pgTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.send(ctx, query, args...)
}

// QueryContext runs a query that must go after the pending writes in
// one batch with them, and the others by themselves, before them.
func (p *pgTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if p.waitsFor(query) {
		return p.mem.query(p.batchRead(ctx, query, args...))
	}
	return p.conn.QueryContext(ctx, query, args...)
}

// QueryRowContext is QueryContext for one row. When a write before it
// fails, its error is the write's, which is also the transaction's
// (Tx.cause).
func (p *pgTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if p.waitsFor(query) {
		return p.mem.queryRow(p.batchRead(ctx, query, args...))
	}
	return p.conn.QueryRowContext(ctx, query, args...)
}

// batchRead sends the pending writes and then query, in one batch, and
// returns query's rows read whole (a write's, with RETURNING, or a
// read's): one round trip, where a read after the writes took two, the
// writes' and its own. A pending write that fails is the transaction's
// failure, and the rows' error.
func (p *pgTx) batchRead(ctx context.Context, query string, args ...any) *bufferedRows {
	return p.batchReadsAfter(ctx, p.mustFollow(query), []batchQuery{{query, args}})[0]
}

// batchQuery is a statement whose rows a batch reads, rebound.
type batchQuery struct {
	query string
	args  []any
}

// batchReads is batchRead for several statements, run in their order
// after the pending writes, in one round trip: each one's rows, or the
// error that stopped the batch at or before it.
func (p *pgTx) batchReads(ctx context.Context, qs []batchQuery) []*bufferedRows {
	return p.batchReadsAfter(ctx, len(p.pending), qs)
}

// batchReadsAfter is batchReads after the first n pending writes alone
// (sendBatch).
func (p *pgTx) batchReadsAfter(ctx context.Context, n int, qs []batchQuery) []*bufferedRows {
	out := make([]*bufferedRows, len(qs))
	err := p.sendBatch(ctx, n, qs, func(c *pgx.Conn, br pgx.BatchResults) error {
		for i := range qs {
			rows, err := br.Query()
			var read *bufferedRows
			if err == nil {
				read, err = readBuffered(rows, c.TypeMap())
			}
			if err != nil {
				return err // this query's error, and every later one's
			}
			out[i] = read
		}
		return nil
	})
	for i := range out {
		switch {
		case out[i] == nil && err != nil:
			out[i] = &bufferedRows{err: err}
		case out[i] == nil:
			out[i] = &bufferedRows{err: errNotBuffered}
		}
	}
	return out
}

// control runs a savepoint's statement. A SAVEPOINT waits with the
// writes for the next statement, as BEGIN does: nothing after it may
// overtake it, and no later write of a seat's row merges into one before
// it (issue 40: it was a round trip of its own for every mail of a
// batch). A rollback to a savepoint still waiting drops it and what was
// given after it, unsent, and nothing reaches the server, neither the
// rollback nor the release that follows it (unsent). A rollback to one
// sent drops the writes pending, all given after it, and goes to the
// server. A release takes the writes pending with it.
func (p *pgTx) control(ctx context.Context, query string) error {
	switch {
	case strings.HasPrefix(query, "SAVEPOINT "):
		p.pending = append(p.pending, pendingWrite{query: query, what: "begin a savepoint"})
		return nil
	case strings.HasPrefix(query, "ROLLBACK TO "):
		name := strings.TrimPrefix(query, "ROLLBACK TO ")
		for i := len(p.pending) - 1; i >= 0; i-- {
			if p.pending[i].query == "SAVEPOINT "+name {
				p.pending = p.pending[:i]
				p.unsent = append(p.unsent, name)
				return nil
			}
		}
		p.pending = nil
		if _, err := p.conn.ExecContext(ctx, query); err != nil {
			return err
		}
		p.failure = nil // the server took it: the transaction works again
		return nil
	case strings.HasPrefix(query, "RELEASE "):
		if n := len(p.unsent); n > 0 && "RELEASE "+p.unsent[n-1] == query {
			p.unsent = p.unsent[:n-1]
			return nil
		}
	}
	_, err := p.send(ctx, query)
	return err
}

// Commit sends the pending writes with the COMMIT. PostgreSQL answers a
// COMMIT of a transaction that a failed statement ended with ROLLBACK,
// which is an error here.
func (p *pgTx) Commit() error {
	if p.failure != nil {
		return p.failure
	}
	tag, err := p.batch(context.Background(), "COMMIT")
	switch {
	case err != nil:
		return err
	case tag.String() != "COMMIT":
		return errRolledBack
	}
	return nil
}

// errRolledBack is a COMMIT the server answered with ROLLBACK.
var errRolledBack = errors.New("the server rolled the transaction back")

// Rollback drops the pending writes and rolls back. A transaction whose
// BEGIN is still pending never reached the server, and has nothing to
// roll back there.
func (p *pgTx) Rollback() error {
	unbegun := len(p.pending) > 0 && p.pending[0].query == "BEGIN"
	p.pending = nil
	if unbegun {
		return nil
	}
	_, err := p.conn.ExecContext(context.Background(), "ROLLBACK")
	return err
}

// close gives the connection back to the pool.
func (p *pgTx) close() error { return p.conn.Close() }
