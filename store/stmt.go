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
// It serves SQLite's read pool, and prepares a statement the first time
// it is asked for it; the writer's transactions prepare theirs on its
// session (sqliteSession).
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
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
