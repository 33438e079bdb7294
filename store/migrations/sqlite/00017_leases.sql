-- +goose Up
-- Leases (issue 27): a named right to do some work alone, held by one
-- node until it expires unless its holder renews it. pbem serve takes the
-- lease "reader" before it reads the IMAP mailbox and runs the sweeps
-- and the outbox, so that several nodes on one database have one reader
-- at a time (internal/daemon/lease.go). A lease lasts seconds: its times
-- are unix milliseconds, set by the holder's clock. A released lease has
-- no row.
--
-- Plain SQL on purpose (no STRICT, no SQLite function), so that the same
-- table serves PostgreSQL, where the times want BIGINT.
CREATE TABLE leases (
	name        TEXT PRIMARY KEY,
	holder      TEXT NOT NULL,
	acquired_ms INTEGER NOT NULL,
	expires_ms  INTEGER NOT NULL
);

-- +goose Down
DROP TABLE leases;
