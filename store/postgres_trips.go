package store

import (
	"context"
	"net"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"
)

// countRoundTrips makes every connection of cfg count its writes to the
// server in n. pgx writes what a statement sends (with the extended
// protocol: bind, execute and sync) at once and then waits for the
// answer, so each write is one round trip; the count sees what the
// statements alone do not: a statement prepared the first time on a
// connection, a ping before a connection idle for a second is used
// again, TLS's handshake.
func countRoundTrips(cfg *pgconn.Config, n *atomic.Int64) {
	dial := cfg.DialFunc
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return tripConn{Conn: c, n: n}, nil
	}
}

// tripConn counts the writes to a connection.
type tripConn struct {
	net.Conn
	n *atomic.Int64
}

func (c tripConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}
