package store

import (
	"context"
	"fmt"
	"os"
	"time"
)

// A finished game is worth keeping: its moves, events and audit are the
// record players and admins come back to, and they are small. What made
// a database grow by megabytes per game was the outbox's copy of every
// mail sent (about 360 mails of 24 kB for a 4-player Felix game). A
// retention pass drops what is no longer needed once it is old:
//
//   - the message of outbox mails that are sent or dead (their rows of
//     outbox_messages; message_size says 0): the row stays, with its
//     Message-ID, recipient, state,
//     seat, decision and seen event, which stale-reply detection
//     (OutgoingHeader) and idempotent enqueueing (Enqueue,
//     HasOutgoing) read; no body is ever sent again once sent or dead;
//   - the whole outbox row of such a mail about a game that is over
//     (finished, aborted or declined: no game leaves these states). What
//     the row is kept for no longer arises there: whether a reply is
//     stale matters only while a game is active (a reply to a game that
//     is over is answered that the game is over, found row or not); no
//     deadline or reminder falls due in it, so HasOutgoing is not asked;
//     and every other mail's Message-ID is derived from the inbound mail
//     it answers, which InboundSeen recognises for ever, so it is never
//     queued again. These rows, with the Message-ID index, are two thirds
//     of what a game leaves once the bodies are gone;
//   - the detail of inbound rows, the reason written for a person to
//     read; the row stays with its Message-ID, sent_as, digest, mailbox,
//     UIDVALIDITY, UID and outcome, which make a message seen once for
//     ever (InboundSeen);
//   - refusal and budget rows older than their limits' windows, which no
//     longer count towards any limit (AllowRefusal and Spent drop them
//     too, but only for an address that writes again).
//
// Inbound mail bodies are never stored: the mailbox keeps them.

// Retention is what one retention pass drops.
type Retention struct {
	// Now is when the pass runs; every age is measured back from it.
	Now time.Time
	// MailBodies is how long the bodies of sent and dead mails and the
	// details of inbound mails are kept: a sent mail by when it was sent,
	// a dead one by its last attempt, an inbound one by when it came.
	// Zero keeps them for ever.
	MailBodies time.Duration
	// RefusalWindow is the window of the refusal limit (AllowRefusal):
	// older refusal rows are dropped. Zero keeps them.
	RefusalWindow time.Duration
	// BudgetWindow is the longest window of any budget bucket (Spend):
	// older budget rows are dropped. Zero keeps them.
	BudgetWindow time.Duration
	// Batch is how many rows one transaction changes at most, 500 if zero:
	// a large backlog is worked off in many short transactions, so that
	// the turn loop never waits long for the write lock.
	Batch int
}

// Retained says what a retention pass dropped.
type Retained struct {
	MailBodies     int64 // outbox bodies dropped, with their rows or not
	MailBodyBytes  int64 // their size as mails (stored packed, a third of it or less: messagecodec.go)
	MailRows       int64 // outbox rows of games that are over deleted
	Details        int64 // inbound details dropped
	DetailBytes    int64 // their size
	Refusals       int64 // refusal rows dropped
	Budget         int64 // budget rows dropped
	ReclaimedBytes int64 // how much smaller the database became
}

// Zero reports whether the pass dropped nothing.
func (r Retained) Zero() bool { return r == Retained{} }

// vacuumStep is how many free pages one `PRAGMA incremental_vacuum` moves
// and truncates: 4 MB with the default page size, a step of a few
// milliseconds that holds the write lock no longer than a batch does.
const vacuumStep = 1000

// Retain runs one retention pass (see the top of this file) and then gives
// the freed space back to the file system.
//
// Space: deleting or shrinking rows only puts their pages on SQLite's
// free list; the file keeps its size. A full VACUUM would shrink it, but
// it rewrites the whole database in one transaction, holding the write
// lock for as long as that takes and needing as much free disk again;
// auto_vacuum = FULL would instead move pages at every commit, slowing
// every turn. The database is in auto_vacuum = INCREMENTAL mode (migration
// 00004), so here `PRAGMA incremental_vacuum` moves the free pages to the
// end of the file and truncates them, a bounded number at a time, and a
// final checkpoint copies the WAL back and truncates it, so that the space
// is returned before the pass ends.
//
// On PostgreSQL the space of deleted and shrunk rows is PostgreSQL's
// autovacuum's to reuse: Retain gives nothing back itself, and reports
// ReclaimedBytes 0.
func (s *Store) Retain(ctx context.Context, r Retention) (Retained, error) {
	batch := r.Batch
	if batch <= 0 {
		batch = 500
	}
	var out Retained
	before, err := s.pages(ctx)
	if err != nil {
		return out, fmt.Errorf("store: retention: %w", err)
	}
	if r.MailBodies > 0 {
		cutoff := unix(r.Now.Add(-r.MailBodies))
		// Rows deleted first: their bodies need no rewriting.
		forgot, err := s.trimBatches(ctx, batch, forgetOverGames, cutoff)
		out.MailRows, out.MailBodies, out.MailBodyBytes = forgot.rows, forgot.nonEmpty, forgot.bytes
		if err != nil {
			return out, fmt.Errorf("store: retention: forget mail of games over: %w", err)
		}
		if err := s.Tx(ctx, func(tx *Tx) error {
			// A game whose mail is all gone has nothing more to forget.
			_, err := tx.exec(ctx, `DELETE FROM ended_games
				WHERE NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.game_id = ended_games.game_id)`)
			return err
		}); err != nil {
			return out, fmt.Errorf("store: retention: forget games over: %w", err)
		}
		bodies, err := s.trimBatches(ctx, batch, dropBodies, cutoff)
		out.MailBodies += bodies.rows
		out.MailBodyBytes += bodies.bytes
		if err != nil {
			return out, fmt.Errorf("store: retention: drop mail bodies: %w", err)
		}
		details, err := s.trimBatches(ctx, batch, dropDetails, cutoff)
		out.Details, out.DetailBytes = details.rows, details.bytes
		if err != nil {
			return out, fmt.Errorf("store: retention: drop inbound details: %w", err)
		}
	}
	if r.RefusalWindow > 0 {
		out.Refusals, err = s.deleteBatches(ctx, batch, "refusals", unix(r.Now.Add(-r.RefusalWindow)))
		if err != nil {
			return out, fmt.Errorf("store: retention: expire refusals: %w", err)
		}
	}
	if r.BudgetWindow > 0 {
		out.Budget, err = s.deleteBatches(ctx, batch, "budget", unix(r.Now.Add(-r.BudgetWindow)))
		if err != nil {
			return out, fmt.Errorf("store: retention: expire budget: %w", err)
		}
	}
	if err := s.reclaim(ctx); err != nil {
		return out, fmt.Errorf("store: retention: %w", err)
	}
	after, err := s.pages(ctx)
	if err != nil {
		return out, fmt.Errorf("store: retention: %w", err)
	}
	out.ReclaimedBytes = before - after
	return out, nil
}

// A trim finds up to LIMIT rows older than a cutoff that still hold what
// it drops, with their sizes, and then empties them by id.
// The find queries match the partial indexes of migration 00004 term for
// term, which is what lets SQLite use them.
type trim struct {
	find  string
	empty func(ctx context.Context, tx *Tx, ids []int64) error
}

var (
	// The games that are over are found in ended_games, which holds only
	// those with mail left, and their mail by outbox_game: never the
	// whole outbox, nor every game that ever ended. CROSS JOIN keeps
	// ended_games the outer loop: left to itself, SQLite would rather
	// read the whole outbox in id order, for the ORDER BY. (The join's
	// condition is in WHERE: PostgreSQL takes no ON after CROSS JOIN.)
	forgetOverGames = trim{
		find: `SELECT outbox.id, outbox.message_size FROM ended_games CROSS JOIN outbox
			WHERE outbox.game_id = ended_games.game_id
			AND outbox.state <> 'pending' AND coalesce(outbox.sent_at, outbox.not_before) <= ?
			ORDER BY outbox.id LIMIT ?`,
		empty: func(ctx context.Context, tx *Tx, ids []int64) error {
			in, arg := tx.be.idsIn(ids)
			_, err := tx.exec(ctx, `DELETE FROM outbox WHERE id `+in, arg)
			return err
		},
	}
	dropBodies = trim{
		find: `SELECT id, message_size FROM outbox
			WHERE state <> 'pending' AND message_size > 0 AND coalesce(sent_at, not_before) <= ?
			ORDER BY coalesce(sent_at, not_before) LIMIT ?`,
		empty: emptyBodies,
	}
	dropDetails = trim{
		find: `SELECT id, octet_length(detail) FROM inbound
			WHERE detail <> '' AND received_at <= ?
			ORDER BY received_at LIMIT ?`,
		empty: func(ctx context.Context, tx *Tx, ids []int64) error {
			in, arg := tx.be.idsIn(ids)
			_, err := tx.exec(ctx, `UPDATE inbound SET detail = '' WHERE id `+in, arg)
			return err
		},
	}
)

// emptyBodies drops the messages of the outbox rows ids
// (outbox_messages), and says so in the rows (message_size 0), which
// leave the outbox_bodies index.
func emptyBodies(ctx context.Context, tx *Tx, ids []int64) error {
	in, arg := tx.be.idsIn(ids)
	if _, err := tx.exec(ctx, `DELETE FROM outbox_messages WHERE id `+in, arg); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `UPDATE outbox SET message_size = 0 WHERE id `+in, arg)
	return err
}

// trimmed counts what trimBatches changed.
type trimmed struct {
	rows     int64 // rows changed or deleted
	nonEmpty int64 // of which held something to drop (a size above 0)
	bytes    int64 // the sizes dropped
}

// trimBatches runs tr in transactions of at most batch rows until no row
// is left.
func (s *Store) trimBatches(ctx context.Context, batch int, tr trim, cutoff int64) (trimmed, error) {
	var total trimmed
	for {
		var got trimmed
		err := s.Tx(ctx, func(tx *Tx) error {
			got = trimmed{}
			rows, err := tx.q.QueryContext(ctx, tr.find, cutoff, batch)
			if err != nil {
				return wrap(err)
			}
			defer rows.Close()
			var ids []int64
			for rows.Next() {
				var id, size int64
				if err := rows.Scan(&id, &size); err != nil {
					return err
				}
				ids = append(ids, id)
				got.rows++
				got.bytes += size
				if size > 0 {
					got.nonEmpty++
				}
			}
			if err := rows.Err(); err != nil {
				return wrap(err)
			}
			rows.Close()
			if len(ids) == 0 {
				return nil
			}
			return tr.empty(ctx, tx, ids)
		})
		if err != nil {
			return total, err
		}
		total.rows += got.rows
		total.nonEmpty += got.nonEmpty
		total.bytes += got.bytes
		if got.rows < int64(batch) {
			return total, nil
		}
	}
}

// deleteBatches deletes the rows of table (refusals or budget: both have
// an id and a time at) at or before cutoff, batch rows a transaction. The
// oldest rows have the lowest ids, so each batch finds its rows near the
// start of the table.
func (s *Store) deleteBatches(ctx context.Context, batch int, table string, cutoff int64) (int64, error) {
	query := `DELETE FROM ` + table + ` WHERE id IN (SELECT id FROM ` + table + ` WHERE at <= ? ORDER BY id LIMIT ?)`
	var n int64
	for {
		var got int64
		err := s.Tx(ctx, func(tx *Tx) error {
			res, err := tx.exec(ctx, query, cutoff, batch)
			if err != nil {
				return err
			}
			got, err = res.RowsAffected()
			return err
		})
		if err != nil {
			return n, err
		}
		n += got
		if got < int64(batch) {
			return n, nil
		}
	}
}

// reclaim gives free pages back to the file system, vacuumStep pages at a
// time, each step its own short write, and then checkpoints the WAL. On
// PostgreSQL it does nothing: autovacuum does that work there.
func (s *Store) reclaim(ctx context.Context) error {
	if s.be.engine() != SQLite {
		return nil
	}
	for {
		var free int64
		if err := s.w.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
			return fmt.Errorf("free pages: %w", wrap(err))
		}
		if free == 0 {
			break
		}
		if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA incremental_vacuum(%d)`, vacuumStep)); err != nil {
			return fmt.Errorf("incremental vacuum: %w", wrap(err))
		}
		var left int64
		if err := s.w.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&left); err != nil {
			return fmt.Errorf("free pages: %w", wrap(err))
		}
		if left >= free {
			// Not in incremental mode (a database the migration has
			// not reached): nothing more can be given back this way.
			break
		}
	}
	return s.Checkpoint(ctx)
}

// Checkpoint copies the write-ahead log into the database file and
// truncates the log, so that the file's size is the database's. It waits
// up to the busy timeout for readers still on an older snapshot, and does
// what it can if they stay. On PostgreSQL, which has no such log to
// fold, it does nothing.
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.be.engine() != SQLite {
		return nil
	}
	var busy, logPages, done int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &done); err != nil {
		return fmt.Errorf("store: checkpoint: %w", wrap(err))
	}
	return nil
}

// pages is the database's size in bytes, counted in pages, free ones
// included: what the file holds after a checkpoint. It is 0 on
// PostgreSQL (see Retain).
func (s *Store) pages(ctx context.Context) (int64, error) {
	if s.be.engine() != SQLite {
		return 0, nil
	}
	var n, size int64
	if err := s.w.QueryRowContext(ctx, `SELECT page_count, page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&n, &size); err != nil {
		return 0, fmt.Errorf("page count: %w", wrap(err))
	}
	return n * size, nil
}

// FileBytes is the size on disk of the database file and its write-ahead
// log: what the database costs in disk space now. On PostgreSQL it is
// the size of the store's tables, with their indexes and out-of-line
// values, in its schema.
func (s *Store) FileBytes(ctx context.Context) (int64, error) {
	if s.be.engine() != SQLite {
		var n int64
		err := s.r.QueryRowContext(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relkind = 'r'`).Scan(&n)
		if err != nil {
			return 0, fmt.Errorf("store: database size: %w", wrap(err))
		}
		return n, nil
	}
	path, err := s.path(ctx)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("store: file size: %w", err)
		}
		total += fi.Size()
	}
	return total, nil
}

// path is the database file's path as SQLite opened it.
func (s *Store) path(ctx context.Context) (string, error) {
	if _, err := s.sqliteOnly("database file"); err != nil {
		return "", err
	}
	var path string
	if err := s.r.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		return "", fmt.Errorf("store: database path: %w", wrap(err))
	}
	return path, nil
}
