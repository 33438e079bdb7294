package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// This file is how a write transaction runs: begun (Store.Tx, GameTx,
// CommuteTx) and scoped to its locks (gamelock.go says which writes each
// scope may make), its savepoints, the statements every write method
// runs through (exec, execOne, mayDuplicate), and the errors they make
// recognisable (wrap, Unavailable).

// Tx is one write transaction. Its methods are valid only inside the
// function given to [Store.Tx]. Its read methods see its own writes.
type Tx struct {
	reader
	tx txConn
	// game is the game of a Store.GameTx, whose writes are checked
	// against it (gamelock.go); 0 in a Store.Tx, which may write
	// anything.
	game int64
	// addresses holds the addresses whose lock the transaction holds
	// (lockAddress).
	addresses map[string]bool
	// m counts the statements the transaction runs beside its querier
	// (control).
	m *meter
	// memo keeps the rows the transaction read most until it writes
	// their tables (txmemo.go).
	memo *txMemo
	// queued is the store's messages of mails queued lately, and posted
	// the mails this transaction queued, which join them when it commits
	// (queued.go).
	queued *queuedMessages
	posted []queuedMessage
	// packer packs the messages of the mails it queues (messagecodec.go).
	packer *messagePacker
}

// Tx runs fn in one write transaction and commits it if fn returns nil.
// If fn returns an error or panics, the transaction is rolled back (and the
// panic goes on).
//
// Transactions run one at a time, those of every process on the database
// (the others wait, or until their context ends): on SQLite an IMMEDIATE
// transaction on the single write connection, on PostgreSQL a transaction
// that first takes pbem's advisory write lock exclusive (see backend), so
// that no game's transaction (GameTx) runs beside it either. fn should be
// quick and must not call Tx itself, which would wait forever.
//
// Tx does not retry. Within the process transactions queue for the single
// write connection, so SQLITE_BUSY can only come from another process
// holding the lock past the busy timeout, and then the error matches
// ErrBusy: nothing was written, and since fn may have had effects outside
// the database (it should not, but the store cannot know), only the caller
// can decide to run it again. PostgreSQL's serialization failures and
// deadlocks match ErrBusy too.
func (s *Store) Tx(ctx context.Context, fn func(*Tx) error) error {
	return s.run(ctx, 0, fn)
}

// run runs fn in one write transaction: under pbem's lock exclusive if
// game is 0 (Store.Tx), else shared and scoped to the game (Store.GameTx,
// which locks the game's row itself).
func (s *Store) run(ctx context.Context, game int64, fn func(*Tx) error) error {
	sqlTx, release, err := s.be.begin(ctx, game != 0)
	if err != nil {
		return fmt.Errorf("store: begin: %w", wrap(err))
	}
	defer release()
	for _, q := range s.be.beginStatements(game != 0) {
		s.meter.control(q)
	}
	done := false
	defer func() {
		// Runs on error and on panic alike; a panic goes on after it.
		if !done {
			s.meter.control("ROLLBACK")
			sqlTx.Rollback()
		}
	}()
	memo := &txMemo{}
	q := memoQuerier{q: meteredQuerier{q: s.be.inTx(sqlTx), m: s.meter, detached: true}, memo: memo}
	tx := &Tx{reader: reader{q: q, be: s.be}, tx: sqlTx, game: game, m: s.meter, memo: memo, queued: s.queued, packer: s.packer}
	if err := fn(tx); err != nil {
		return tx.cause(err)
	}
	if fail := s.failCommits.Load(); fail != nil {
		return fmt.Errorf("store: commit: %w", *fail)
	}
	// The transaction was begun under a context that is never done
	// (meteredQuerier): a done ctx rolls it back here, as database/sql
	// would have.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	done = true
	s.meter.control("COMMIT")
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", wrap(err))
	}
	if s.queued != nil {
		s.queued.add(tx.posted)
	}
	return nil
}

// Savepoint runs fn inside a savepoint of tx: if fn returns an error or
// panics, everything fn wrote is undone and the rest of the transaction
// stays, so that one transaction can carry several independent pieces of
// work (the daemon commits a batch of inbound mails at once, and one that
// fails must take nothing of the others with it). A panic goes on after
// the rollback.
func (tx *Tx) Savepoint(ctx context.Context, fn func() error) (err error) {
	// Savepoints nest by name; one name serves, because each is released
	// or rolled back before the next begins at the same depth.
	if _, err := tx.control(ctx, "SAVEPOINT work"); err != nil {
		return fmt.Errorf("store: savepoint: %w", wrap(err))
	}
	done := false
	posted := len(tx.posted)
	defer func() {
		if done {
			return
		}
		// ROLLBACK TO leaves the savepoint open; RELEASE closes it.
		// The context may be done by now: undoing must not depend on it.
		bg := context.WithoutCancel(ctx)
		tx.memo.forgetAll() // what it kept may be what fn wrote
		tx.posted = tx.posted[:posted]
		_, rerr := tx.control(bg, "ROLLBACK TO work")
		if rerr == nil {
			_, rerr = tx.control(bg, "RELEASE work")
		}
		if rerr != nil && err != nil {
			err = fmt.Errorf("%w (and undoing it failed: %w)", err, wrap(rerr))
		}
	}()
	if err := fn(); err != nil {
		return tx.cause(err)
	}
	if _, err := tx.control(ctx, "RELEASE work"); err != nil {
		return fmt.Errorf("store: release savepoint: %w", wrap(err))
	}
	done = true
	return nil
}

// mayDuplicate runs fn, a write whose ErrDuplicate the caller may take
// as an answer and go on with the transaction. SQLite undoes just the
// failed statement; PostgreSQL would abort the whole transaction, so
// there fn runs in a savepoint of its own, rolled back if fn fails.
func (tx *Tx) mayDuplicate(ctx context.Context, fn func() error) error {
	if tx.be.engine() == SQLite {
		return fn()
	}
	if _, err := tx.control(ctx, "SAVEPOINT duplicate"); err != nil {
		return wrap(err)
	}
	err := fn()
	if err != nil {
		bg := context.WithoutCancel(ctx)
		tx.memo.forgetAll()
		if _, rerr := tx.control(bg, "ROLLBACK TO duplicate"); rerr != nil {
			return fmt.Errorf("%w (and undoing it failed: %w)", err, wrap(rerr))
		}
	}
	if _, rerr := tx.control(context.WithoutCancel(ctx), "RELEASE duplicate"); rerr != nil && err == nil {
		return wrap(rerr)
	}
	return err
}

// control runs a savepoint's statement on the transaction itself, not
// through its querier: a savepoint's name is no statement to prepare.
func (tx *Tx) control(ctx context.Context, query string) (sql.Result, error) {
	tx.m.control(query)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx) // see meteredQuerier
	if p, ok := tx.tx.(*pgTx); ok {
		return nil, p.control(ctx, query)
	}
	return tx.tx.ExecContext(ctx, query)
}

// later runs a write whose result nobody waits for (pipeline.go): on
// PostgreSQL with the transaction's next statement, whose round trip it
// shares; on SQLite at once. what names the write in its error, which
// on PostgreSQL is the error of that next statement, or of the
// savepoint or commit it came before.
func (tx *Tx) later(ctx context.Context, what, query string, args ...any) error {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		if _, err := tx.exec(ctx, query, args...); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err // as meteredQuerier would
	}
	tx.m.query(query, args)
	tx.memo.before(query)
	p.later(what, query, args)
	return nil
}

// laterLock is later for a lock on PostgreSQL that guards the tables
// named (an address's): a read of other tables may go before it
// (pipeline.go).
func (tx *Tx) laterLock(ctx context.Context, what, query string, guards []string, args ...any) error {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		return fmt.Errorf("store: %s: a lock for PostgreSQL on %s", what, tx.be.engine())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tx.m.query(query, args)
	p.laterLock(what, query, guards, args)
	return nil
}

// laterInto is later for a statement on PostgreSQL that writes the
// tables named, which the transaction's memo cannot tell from its text
// (a WITH that inserts, Tx.postMessage): the memo forgets what it kept
// of those tables alone, rather than everything.
func (tx *Tx) laterInto(ctx context.Context, what, query string, tables []string, args ...any) error {
	return tx.laterIntoThen(ctx, what, query, tables, nil, args...)
}

// laterIntoThen is laterInto that tells done, if not nil, the command
// tag of the statement once the server ran it: before the transaction
// commits, and never if the statement is dropped unsent (a savepoint's
// rollback) or fails.
func (tx *Tx) laterIntoThen(ctx context.Context, what, query string, tables []string, done func(pgconn.CommandTag), args ...any) error {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		return fmt.Errorf("store: %s: a statement for PostgreSQL on %s", what, tx.be.engine())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tx.m.query(query, args)
	for _, t := range tables {
		tx.memo.writes(t)
	}
	p.laterThen(what, query, args, done)
	return nil
}

// cause is the error a transaction, or a savepoint of it, ends with
// when its function returned err: the error of a write given to later
// that failed, if one did, for what followed it was refused because of
// it (pipeline.go); else err.
func (tx *Tx) cause(err error) error {
	if p, ok := tx.tx.(*pgTx); ok && p.failure != nil {
		return p.failure
	}
	return err
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader holds the read methods shared by Store and Tx.
type reader struct {
	q  querier
	be backend // for the few statements whose text differs by engine
}

// exec runs a write statement inside tx.
func (tx *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := tx.q.ExecContext(ctx, query, args...)
	return res, wrap(err)
}

// execOne runs a statement that must change exactly one row, and reports
// ErrNotFound if it changed none.
func (tx *Tx) execOne(ctx context.Context, query string, args ...any) error {
	res, err := tx.exec(ctx, query, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// wrap makes the engine's errors recognisable: unique-key violations
// match ErrDuplicate, a lock held too long (or, on PostgreSQL, a
// serialization failure or deadlock) matches ErrBusy and a missing row
// matches ErrNotFound. The original error stays in the chain.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	if kind := classifySQLite(err); kind != nil {
		return fmt.Errorf("%w: %w", kind, err)
	}
	if kind := classifyPostgres(err); kind != nil {
		return fmt.Errorf("%w: %w", kind, err)
	}
	return err
}

// Unavailable reports whether err says that the database could not do
// its work at all — it is full, read-only, locked by another process,
// failing to read or write its file, or (PostgreSQL) unreachable or
// shutting down — rather than anything about the rows asked for. Such an
// error passes when the disk or the server does: the caller retries the
// same work later, and must not take it for a fault of the work itself
// (the daemon never sets a mail aside for it).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrBusy) || errors.Is(err, ErrUnavailable) {
		return true
	}
	return unavailableSQLite(err) || unavailablePostgres(err)
}

// ErrUnavailable is matched by Unavailable: a failure to reach the
// database that the store sees before SQLite does (tests inject it).
var ErrUnavailable = errors.New("store: database unavailable")

// gameTxTries is how many times GameTx runs a function that met a
// deadlock or a lock timeout (ErrBusy) among game transactions, before
// it returns ErrBusy: the daemon's answer to that, for a mail delivered
// by LMTP, is a 4xx that makes the mail server wait minutes.
const gameTxTries = 3

// GameTx runs fn in one write transaction about the game gameID: as
// Store.Tx, but on PostgreSQL beside the transactions of other games.
// It takes pbem's lock shared and locks the game's row, so that the
// transactions of one game, of every node, run one after the other in
// the order they asked, and those of different games at once.
//
// fn may write the game's rows and what commutes (writeScopes). Any
// other write returns ErrWiderLock; GameTx then rolls back and runs fn
// again under Store.Tx, which is why fn must be fit to run again (start
// afresh) and must not have effects outside the transaction. A game that
// does not exist is left to Store.Tx as well. A deadlock or lock timeout
// among game transactions (ErrBusy) runs fn again, gameTxTries times in
// all.
func (s *Store) GameTx(ctx context.Context, gameID int64, fn func(*Tx) error) error {
	_, err := s.gameTx(ctx, gameID, false, fn)
	return err
}

// GameTxUnlessBusy is GameTx for work that need not wait: if another
// transaction holds the game's row, it runs nothing and reports ran
// false (on PostgreSQL only; on SQLite the one writer is waited for).
// The sweeps use it: a game another node is working on is seen again at
// the next sweep.
func (s *Store) GameTxUnlessBusy(ctx context.Context, gameID int64, fn func(*Tx) error) (ran bool, err error) {
	return s.gameTx(ctx, gameID, true, fn)
}

// CommuteTx runs fn in a write transaction that makes only writes that
// commute (writeScopes): the outbox's claims and marks, which every node
// writes after each batch it sends. On PostgreSQL it takes pbem's lock
// shared and no game's row, so it runs beside the games' transactions,
// where Store.Tx would wait for every one of them and hold back every
// new one meanwhile. A write of a game's rows or of shared state returns
// ErrWiderLock, and fn runs again under Store.Tx; a deadlock or lock
// timeout (ErrBusy) runs it again, gameTxTries times in all. On SQLite
// it is Store.Tx with the same checks.
func (s *Store) CommuteTx(ctx context.Context, fn func(*Tx) error) error {
	var err error
	for range gameTxTries {
		err = s.run(ctx, noGame, fn)
		switch {
		case errors.Is(err, ErrWiderLock):
			return s.Tx(ctx, fn)
		case errors.Is(err, ErrBusy) && s.be.engine() == PostgreSQL && ctx.Err() == nil:
			continue
		}
		return err
	}
	return err
}

// errGameBusy ends a GameTxUnlessBusy whose game's row is held.
var errGameBusy = errors.New("store: the game is busy")

func (s *Store) gameTx(ctx context.Context, gameID int64, skipLocked bool, fn func(*Tx) error) (bool, error) {
	if gameID <= 0 {
		return true, s.Tx(ctx, fn)
	}
	var err error
	for range gameTxTries {
		err = s.run(ctx, gameID, func(tx *Tx) error {
			if err := tx.lockGame(ctx, gameID, skipLocked); err != nil {
				return err
			}
			return fn(tx)
		})
		switch {
		case errors.Is(err, errGameBusy):
			return false, nil
		case errors.Is(err, ErrWiderLock):
			return true, s.Tx(ctx, fn)
		case errors.Is(err, ErrBusy) && s.be.engine() == PostgreSQL && ctx.Err() == nil:
			continue // a deadlock among game transactions: one of them gives way
		}
		return true, err
	}
	return true, err
}

// lockAndKeep runs lock, which locks the row of game id, and says how
// many rows it locked; in the same batch, after it, it reads the game's
// row, its seats and their players, and its event log (keepEvents),
// which the transaction then keeps (keepRead) when the row was locked:
// a mail to a seat's address, and a sweep's item, read them all, and
// each was a round trip of its own (issue 40). Read under the row's
// lock, the game and seats are what the transaction would read; the
// players are as Tx.Player keeps them (txmemo.go), as first read.
func (tx *Tx) lockAndKeep(ctx context.Context, lock string, id int64) (int64, error) {
	p, ok := tx.tx.(*pgTx)
	if !ok {
		return 0, fmt.Errorf("a game's lock on %s", tx.be.engine())
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	batch := tx.idQueries(p, nil, []string{lock, gameSQL, seatsAndPlayersSQL}, id)
	read := p.batchReads(ctx, tx.eventQueries(p, batch, id))
	if err := read[0].err; err != nil {
		return 0, err
	}
	n := int64(len(read[0].rows))
	if n != 1 {
		return n, nil
	}
	if err := tx.keepRead(p, id, read[1], read[2]); err != nil {
		return 1, err
	}
	return 1, tx.keepEvents(id, read[3])
}

// The reads of a game's row, its seats and their players, by the game's
// id: reader.Game, reader.Seats and reader.SeatedPlayers, and
// lockAndKeep and ReceiveKeeping, which read the three at once. One text for
// each, which pgx prepares once on a connection.
const (
	gameSQL          = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`
	seatsSQL         = `SELECT ` + seatColumns + ` FROM seats WHERE game_id = ? ORDER BY seat`
	seatedPlayersSQL = selectPlayers + ` WHERE address IN (SELECT address FROM seats WHERE game_id = ?)`
)

// seatsAndPlayersSQL is seatsSQL and seatedPlayersSQL in one statement,
// for the batches of lockAndKeep and ReceiveKeeping: each seat's row,
// then its player's columns, NULL when the address has no player (which
// seats' foreign key forbids, and which keepRead leaves out). A
// statement fewer for every mail about a game costs the server and pgx
// a statement's work less (docs/profiles.md, nineteenth sitting).
// seatsAndPlayersColumns is where the player's columns begin.
var seatsAndPlayersSQL = `SELECT ` + qualified("s", seatColumns) + `, ` +
	qualified("p", scannedPlayerColumns) + `
	FROM seats s LEFT JOIN players p ON p.address = s.address
	WHERE s.game_id = ? ORDER BY s.seat`

var seatsAndPlayersColumns = len(strings.Split(seatColumns, ","))

// qualified is the comma-separated columns, each of table.
func qualified(table, columns string) string {
	cs := strings.Split(columns, ",")
	for i, c := range cs {
		cs[i] = table + "." + strings.TrimSpace(c)
	}
	return strings.Join(cs, ", ")
}

// idQueries appends queries, each of the one argument id, rebound and
// counted as statements (meter), to batch.
func (tx *Tx) idQueries(p *pgTx, batch []batchQuery, queries []string, id int64) []batchQuery {
	for _, q := range queries {
		tx.m.query(q, []any{id})
		batch = append(batch, batchQuery{p.rb.rebind(q), []any{id}})
	}
	return batch
}

// keepRead keeps the game's row, its seats and their players, as read
// by gameSQL and seatsAndPlayersSQL.
func (tx *Tx) keepRead(p *pgTx, id int64, game, seatsAndPlayers *bufferedRows) error {
	g, err := scanGame(p.mem.queryRow(game))
	if err != nil {
		return fmt.Errorf("read the game: %w", wrap(err))
	}
	seats, players := seatsAndPlayers.split(seatsAndPlayersColumns)
	rows, err := p.mem.query(seats)
	ss, err := collect(rows, err, scanSeat)
	if err != nil {
		return fmt.Errorf("read the seats: %w", err)
	}
	rows, err = p.mem.query(players)
	ps, err := collect(rows, err, scanPlayer)
	if err != nil {
		return fmt.Errorf("read the players: %w", err)
	}
	put(&tx.memo.games, id, g.clone())
	if !g.Status.over() {
		put(&tx.memo.notOver, id, true)
	}
	put(&tx.memo.seats, id, ss)
	for _, pl := range ps {
		put(&tx.memo.players, pl.Address, pl)
	}
	return nil
}

// lockGame locks the game's row for the rest of the transaction, on
// PostgreSQL; with skipLocked it returns errGameBusy at once if another
// transaction holds it. A game that does not exist (or not yet) has no
// row to lock: ErrWiderLock leaves it to Store.Tx.
func (tx *Tx) lockGame(ctx context.Context, gameID int64, skipLocked bool) error {
	if tx.be.engine() != PostgreSQL {
		return nil // SQLite's one writer already holds everything
	}
	q := `SELECT id FROM games WHERE id = ? FOR UPDATE`
	if skipLocked {
		q += ` SKIP LOCKED`
	}
	// With the BEGIN and pbem's lock (pipeline.go), and with the reads
	// of the game's row and seats that every game's transaction makes
	// (keepLocked): one round trip for all.
	n, err := tx.lockAndKeep(ctx, q, gameID)
	if err != nil {
		return fmt.Errorf("store: lock game %d: %w", gameID, wrap(err))
	}
	if n > 1 {
		return fmt.Errorf("store: lock game %d: %d rows", gameID, n)
	} else if n == 1 {
		return nil
	}
	if !skipLocked {
		return fmt.Errorf("%w: no game %d to lock", ErrWiderLock, gameID)
	}
	// No row: the game is locked by another, or does not exist.
	var exists bool
	if err := tx.q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)`, gameID).Scan(&exists); err != nil {
		return fmt.Errorf("store: lock game %d: %w", gameID, wrap(err))
	}
	if exists {
		return errGameBusy
	}
	return fmt.Errorf("%w: no game %d to lock", ErrWiderLock, gameID)
}
