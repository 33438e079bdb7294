-- +goose Up
-- A player keeps his games when he changes address (issue 37, part 3):
-- see migrations/sqlite/00023_addresses.sql.
CREATE TABLE address_changes (
	token       TEXT PRIMARY KEY CHECK (token <> ''),
	address     TEXT NOT NULL CHECK (address <> ''),
	new_address TEXT NOT NULL CHECK (new_address <> ''),
	kind        TEXT NOT NULL CHECK (kind IN ('move', 'add')),
	asked_at    BIGINT NOT NULL
);
CREATE INDEX address_changes_address ON address_changes (address);

CREATE TABLE address_aliases (
	alias         TEXT PRIMARY KEY CHECK (alias <> ''),
	address       TEXT NOT NULL REFERENCES players (address),
	alias_mailbox TEXT NOT NULL CHECK (alias_mailbox <> ''),
	mailbox       TEXT NOT NULL CHECK (mailbox <> '')
);
CREATE INDEX address_aliases_address ON address_aliases (address);
CREATE INDEX address_aliases_mailbox ON address_aliases (alias_mailbox);
CREATE INDEX address_aliases_player_mailbox ON address_aliases (mailbox);
-- What MoveAddress and AddressInUse look up by address or mailbox,
-- which no index led with before.
CREATE INDEX games_creator ON games (creator);
CREATE INDEX rated_seats_address ON rated_seats (address);
CREATE INDEX ratings_mailbox ON ratings (mailbox);

-- +goose Down
DROP INDEX ratings_mailbox;
DROP INDEX rated_seats_address;
DROP INDEX games_creator;
DROP INDEX address_aliases_player_mailbox;
DROP INDEX address_aliases_mailbox;
DROP INDEX address_aliases_address;
DROP TABLE address_aliases;
DROP INDEX address_changes_address;
DROP TABLE address_changes;
