package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps a prepared statement per query text. Parsing and planning
// SQL costs as much as running these small statements, and the store runs
// the same few dozen queries all the time. Every query text the store
// runs is built from constants, so the cache stays as small as the set of
// queries in this package.
//
// The read pool's cache prepares a statement the first time it is asked
// for it. The writer's cannot: its pool has a single connection, which
// the running transaction holds, and preparing on the pool would wait for
// it forever. So a transaction runs a query it has no statement for
// unprepared, the cache notes it as pending, and the next transaction
// prepares what is pending before it begins (preparePending). From then
// on every transaction runs that query through the statement, which
// database/sql keeps prepared on the writer's connection (Tx.StmtContext
// reuses it rather than preparing again).
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
	// pending are the queries transactions ran before the writer had
	// their statements, to prepare before the next transaction begins.
	pending map[string]bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

// get returns the prepared statement for query, preparing it once.
//
// The lock is not held while preparing: preparing takes a connection of
// the pool, and a caller that holds one (reading rows) and waits for the
// lock would otherwise deadlock with it once the pool is exhausted. Two
// callers may so prepare the same query at once; the first to finish is
// kept and the other's statement closed.
func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[query]
	c.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.m[query]; ok {
		st.Close()
		return kept, nil
	}
	c.m[query] = st
	return st, nil
}

// lookup returns the statement prepared for query, or nil: then query is
// pending, and the next call of preparePending prepares it. It never
// prepares, so it is safe inside a transaction of the writer.
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[query]
	if !ok {
		c.pending[query] = true
	}
	return st
}

// preparePending prepares the pending queries. It must run while no
// transaction holds the writer's connection, and waits for it otherwise.
// A query that fails to prepare is dropped from pending (it stays
// unprepared until a transaction runs it again), and the failure is not
// reported: the statement is only a saving, and if the database is
// failing, the transaction that follows says so.
func (c *stmtCache) preparePending(ctx context.Context) {
	c.mu.Lock()
	var queries []string
	for query := range c.pending {
		queries = append(queries, query)
	}
	clear(c.pending)
	c.mu.Unlock()
	// The lock is not held while preparing: a transaction that holds the
	// connection takes it in lookup, and would never give the connection
	// back.
	for _, query := range queries {
		st, err := c.db.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if _, ok := c.m[query]; ok {
			st.Close() // another goroutine prepared it meanwhile
		} else {
			c.m[query] = st
		}
		c.mu.Unlock()
	}
}

func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
	return nil
}

// cachedDB runs queries on a pool through its statement cache.
type cachedDB struct {
	c *stmtCache
}

func (d cachedDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := d.c.get(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (d cachedDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := d.c.get(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (d cachedDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := d.c.get(ctx, query)
	if err != nil {
		// Let database/sql report the error through a Row.
		return d.c.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// cachedTx runs a write transaction's queries through the writer's
// statement cache where it has the statement, and unprepared (noting the
// query for the next transaction) where it has not yet.
type cachedTx struct {
	tx *sql.Tx
	c  *stmtCache
}

func (t cachedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.c.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t cachedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.c.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t cachedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.c.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
