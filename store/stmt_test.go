package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sync/atomic"
	"testing"

	"modernc.org/sqlite"
)

// TestStatementsPreparedOnce runs the daemon's transaction for one
// inbound mail (with reads inside it) again and again, and counts the
// statements SQLite prepares: after the first transaction has met
// every query, the writer runs them all through statements already
// prepared on its session's connection, and prepares nothing more (issue 15: the
// profile showed SQLite parsing the same SQL for every mail).
func TestStatementsPreparedOnce(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	var prepares atomic.Int64
	s, _ := newStore(t, func(o *options) { o.driver = countingDriver{&sqlite.Driver{}, &prepares} })
	game := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org", "dan@example.org")
	var uid uint32
	mail := func() {
		t.Helper()
		uid++
		mustTx(t, s, func(tx *Tx) error {
			msgID := fmt.Sprintf("<in-%d@x>", uid)
			mail := Inbound{MessageID: msgID, Mailbox: "INBOX", UIDValidity: 1, UID: uid, From: "ann@example.org",
				GameID: game, Outcome: "applied", ReceivedAt: t0,
				SentAs: SentAs(msgID, "ann@example.org", ""), Digest: "sha256:" + msgID}
			if _, err := tx.InboundSeen(ctx, mail); err != nil {
				return err
			}
			in, err := tx.RecordInbound(ctx, mail)
			if err != nil {
				return err
			}
			if _, err := tx.Game(ctx, game); err != nil {
				return err
			}
			if _, err := tx.Seats(ctx, game); err != nil {
				return err
			}
			if _, err := tx.AppendMove(ctx, game, Move{Seat: int(uid % 4), Command: "bid 5", Source: SourceMail, InboundID: in, At: t0}); err != nil {
				return err
			}
			for r := range 4 {
				if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<out-%d-%d@x>", uid, r), GameID: game,
					To: "bob@example.org", Raw: []byte("mail"), NotBefore: t0}); err != nil {
					return err
				}
			}
			return tx.SetCursor(ctx, "INBOX", 1, uid)
		})
	}
	// The first transaction prepares the queries on the writer's session.
	mail()
	mail()
	warm := prepares.Load()
	for range 50 {
		mail()
	}
	if n := prepares.Load() - warm; n != 0 {
		t.Errorf("50 transactions of queries already met prepared %d statements, want 0", n)
	}
	// Without the cache, each of those transactions prepares every
	// statement it runs: the count above would be in the hundreds.
	if warm == 0 {
		t.Error("the counting driver counted no prepares at all")
	}
}

// countingDriver is modernc's SQLite driver, counting in prepares every
// statement SQLite prepares: those prepared to keep, and those prepared
// for one Exec or Query on the connection.
type countingDriver struct {
	d        driver.Driver
	prepares *atomic.Int64
}

func (d countingDriver) Open(name string) (driver.Conn, error) {
	c, err := d.d.Open(name)
	if err != nil {
		return nil, err
	}
	return countingConn{c.(sqliteConn), d.prepares}, nil
}

// sqliteConn is what modernc's connection offers database/sql.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.SessionResetter
	driver.Validator
	driver.Pinger
}

type countingConn struct {
	sqliteConn
	prepares *atomic.Int64
}

func (c countingConn) Prepare(query string) (driver.Stmt, error) {
	c.prepares.Add(1)
	return c.sqliteConn.Prepare(query)
}

func (c countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.prepares.Add(1)
	return c.sqliteConn.PrepareContext(ctx, query)
}

func (c countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.prepares.Add(1)
	return c.sqliteConn.ExecContext(ctx, query, args)
}

func (c countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.prepares.Add(1)
	return c.sqliteConn.QueryContext(ctx, query, args)
}
