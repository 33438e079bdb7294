-- +goose Up
-- Leases (issue 27): see migrations/sqlite/00017_leases.sql. Times are
-- unix milliseconds.
CREATE TABLE leases (
	name        TEXT PRIMARY KEY,
	holder      TEXT NOT NULL,
	acquired_ms BIGINT NOT NULL,
	expires_ms  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE leases;
