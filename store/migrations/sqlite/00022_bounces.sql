-- Bounces (issue 37).
--
-- bounce_key holds the one secret that signs the bounce addresses of
-- outgoing mail (VERP: pbem+b-ID-MAC@domain), so that only a bounce to
-- an address pbem made counts. bounce_days keeps the days on which an
-- address had a soft bounce (Unix day numbers); unreachable the
-- addresses a hard bounce, or soft bounces on enough days, made
-- unreachable: since when, the status that did it, whether the daemon
-- has acted on it (told the tables, the host or a game's creator), and
-- when it last sent a probe. Any mail from the address deletes its rows.

-- +goose Up

CREATE TABLE bounce_key (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	secret TEXT NOT NULL
);
CREATE TABLE bounce_days (
	address TEXT NOT NULL,
	day INTEGER NOT NULL,
	PRIMARY KEY (address, day)
);
CREATE TABLE unreachable (
	address TEXT PRIMARY KEY,
	since INTEGER NOT NULL,
	status TEXT NOT NULL,
	handled INTEGER NOT NULL DEFAULT 0 CHECK (handled IN (0, 1)),
	probed_at INTEGER
);
CREATE INDEX unreachable_unhandled ON unreachable (since) WHERE handled = 0;

-- +goose Down

DROP INDEX unreachable_unhandled;
DROP TABLE unreachable;
DROP TABLE bounce_days;
DROP TABLE bounce_key;
