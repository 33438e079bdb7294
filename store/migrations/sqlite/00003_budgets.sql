-- What pbem may send an address, and what it may take from one.
--
-- budget records one unit spent from an address's bucket at a time: an
-- answer mailed to an address that plays no running game, a lobby command
-- read from a sender, an invitation from one inviter, a mail exchanged
-- (the loop breaker). Limits and windows are configuration, not schema
-- (daemon/budget.go); rows older than a bucket's window are dropped as
-- the bucket is spent.
--
-- players.no_invitations is set by the player's `never`: pbem invites the
-- address to no game again.

-- +goose Up

CREATE TABLE budget (
	id      INTEGER PRIMARY KEY,
	address TEXT NOT NULL CHECK (address <> ''),
	bucket  TEXT NOT NULL CHECK (bucket <> ''),
	at      INTEGER NOT NULL
) STRICT;

CREATE INDEX budget_address ON budget (address, bucket, at);

ALTER TABLE players ADD COLUMN no_invitations INTEGER NOT NULL DEFAULT 0 CHECK (no_invitations IN (0, 1));

-- +goose Down

ALTER TABLE players DROP COLUMN no_invitations;
DROP TABLE budget;
