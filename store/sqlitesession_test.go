package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"runtime/metrics"
	"sync/atomic"
	"testing"

	"modernc.org/sqlite"
)

// goroutinesCreated is the number of goroutines the process has started.
func goroutinesCreated(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("runtime/metrics has no %s", s[0].Name)
	}
	return s[0].Value.Uint64()
}

// TestWriterQueriesStartNoGoroutine runs transactions that read with
// QueryRow and Query, and counts the goroutines the process starts
// meanwhile. A database/sql Tx watches its own context with a goroutine
// for every Rows it reads (issue 40: 2 % of a command's CPU, and the
// scheduler's work besides); the writer's session runs its statements
// on a connection under contexts never done, which starts none. Not
// parallel: other tests' goroutines would count.
func TestWriterQueriesStartNoGoroutine(t *testing.T) {
	sqliteOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	read := func() {
		t.Helper()
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.Game(ctx, game); err != nil {
				return err
			}
			if _, err := tx.Seats(ctx, game); err != nil {
				return err
			}
			_, err := tx.Player(ctx, "ann@example.org")
			return err
		})
	}
	read() // the statements are prepared
	const n = 50
	before := goroutinesCreated(t)
	for range n {
		read()
	}
	// Anything else the runtime or the test binary starts meanwhile is a
	// handful at most; a goroutine for each read would be 3n.
	if started := goroutinesCreated(t) - before; started >= n/5 {
		t.Errorf("%d transactions of 3 reads started %d goroutines, want (nearly) none", n, started)
	}
}

// TestWriterSessionAfterRollbacks: a transaction that fails, one whose
// commit fails, and one that panics each leave the session to the next
// transaction with no transaction of SQLite's still open on it, and
// what they wrote is gone.
func TestWriterSessionAfterRollbacks(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	write := func(tx *Tx) error {
		_, err := tx.AppendMove(ctx, game, Move{Seat: 0, Command: "bid 5", Source: SourceMail, At: t0})
		return err
	}
	failed := errors.New("the work failed")
	if err := s.Tx(ctx, func(tx *Tx) error {
		if err := write(tx); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatalf("a failing transaction returned %v, want %v", err, failed)
	}
	s.FailWrites(ErrUnavailable)
	if err := s.Tx(ctx, write); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a transaction whose commit fails returned %v, want %v", err, ErrUnavailable)
	}
	s.FailWrites(nil)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic did not go on")
			}
		}()
		s.Tx(ctx, func(tx *Tx) error {
			if err := write(tx); err != nil {
				return err
			}
			panic("the work panicked")
		})
	}()
	mustTx(t, s, func(tx *Tx) error {
		moves, err := tx.Moves(ctx, game, 0)
		if err != nil {
			return err
		}
		if len(moves) != 0 {
			t.Errorf("the rolled-back transactions left %d moves, want 0", len(moves))
		}
		return write(tx)
	})
	moves, err := s.Moves(ctx, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 {
		t.Errorf("the transaction after them committed %d moves, want 1", len(moves))
	}
}

// TestWriterSessionWaitHonoursContext: a transaction waiting for the
// writer's session, which another holds, gives up when its context is
// done rather than waiting on.
func TestWriterSessionWaitHonoursContext(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	s, _ := newStore(t)
	holding := make(chan struct{})
	done := make(chan struct{})
	go func() {
		s.Tx(context.Background(), func(*Tx) error {
			close(holding)
			<-done
			return nil
		})
	}()
	<-holding
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Tx(ctx, func(*Tx) error {
		t.Error("the transaction ran while another held the writer")
		return nil
	})
	close(done)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("waiting with a done context returned %v, want context.Canceled", err)
	}
	mustTx(t, s, func(*Tx) error { return nil }) // the session came back
}

// TestWriterSessionAfterFailedCommit: a COMMIT that fails, here without
// ending the transaction, costs the session: the next transaction runs
// on a new connection, and what the failed one wrote is gone.
func TestWriterSessionAfterFailedCommit(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	d := &failingCommitDriver{d: &sqlite.Driver{}}
	s, _ := newStore(t, func(o *options) { o.driver = d })
	game := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	write := func(tx *Tx) error {
		_, err := tx.AppendMove(ctx, game, Move{Seat: 0, Command: "bid 5", Source: SourceMail, At: t0})
		return err
	}
	opened := d.opens.Load()
	d.failNext.Store(true)
	if err := s.Tx(ctx, write); err == nil {
		t.Fatal("the transaction whose COMMIT failed returned no error")
	}
	mustTx(t, s, func(tx *Tx) error {
		moves, err := tx.Moves(ctx, game, 0)
		if err != nil {
			return err
		}
		if len(moves) != 0 {
			t.Errorf("the failed transaction left %d moves, want 0", len(moves))
		}
		return write(tx)
	})
	if n := d.opens.Load() - opened; n != 1 {
		t.Errorf("after the failed COMMIT the writer opened %d connections, want 1 (a new session)", n)
	}
	moves, err := s.Moves(ctx, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 {
		t.Errorf("the transaction after it committed %d moves, want 1", len(moves))
	}
}

// failingCommitDriver is modernc's SQLite driver whose COMMIT fails,
// without committing or ending the transaction, when failNext is set
// (once). It counts the connections it opens.
type failingCommitDriver struct {
	d        driver.Driver
	opens    atomic.Int64
	failNext atomic.Bool
}

func (d *failingCommitDriver) Open(name string) (driver.Conn, error) {
	c, err := d.d.Open(name)
	if err != nil {
		return nil, err
	}
	d.opens.Add(1)
	return failingCommitConn{c.(sqliteConn), d}, nil
}

type failingCommitConn struct {
	sqliteConn
	d *failingCommitDriver
}

func (c failingCommitConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil || query != "COMMIT" {
		return st, err
	}
	return failingCommitStmt{st, c.d}, nil
}

type failingCommitStmt struct {
	driver.Stmt
	d *failingCommitDriver
}

func (s failingCommitStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if s.d.failNext.CompareAndSwap(true, false) {
		return nil, errors.New("the disk is gone (a test's COMMIT)")
	}
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}
