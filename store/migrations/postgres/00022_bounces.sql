-- +goose Up
-- Bounces (issue 37): see migrations/sqlite/00022_bounces.sql.
CREATE TABLE bounce_key (
	id BIGINT PRIMARY KEY CHECK (id = 1),
	secret TEXT NOT NULL
);
CREATE TABLE bounce_days (
	address TEXT NOT NULL,
	day BIGINT NOT NULL,
	PRIMARY KEY (address, day)
);
CREATE TABLE unreachable (
	address TEXT PRIMARY KEY,
	since BIGINT NOT NULL,
	status TEXT NOT NULL,
	handled BIGINT NOT NULL DEFAULT 0 CHECK (handled IN (0, 1)),
	probed_at BIGINT
);
CREATE INDEX unreachable_unhandled ON unreachable (since) WHERE handled = 0;

-- +goose Down
DROP INDEX unreachable_unhandled;
DROP TABLE unreachable;
DROP TABLE bounce_days;
DROP TABLE bounce_key;
