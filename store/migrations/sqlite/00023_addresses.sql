-- +goose Up
-- A player keeps his games when he changes address (issue 37, part 3).
-- address_changes holds the changes asked for and not yet confirmed: the
-- player's address, the address asked for, whether it replaces his
-- (move) or is added to it (add), and when it was asked (a confirmation
-- is good for a day). The token is the secret of the confirmation mail's
-- reply address and link. address_aliases holds the added addresses:
-- mail from alias is read as from address, and alias_mailbox (the
-- mailbox alias reaches, internal/mailbox's Key) spends the budget of
-- mailbox, the player's (store/budget.go). The keys are computed by the
-- daemon: the store knows no rule.
CREATE TABLE address_changes (
	token       TEXT PRIMARY KEY CHECK (token <> ''),
	address     TEXT NOT NULL CHECK (address <> ''),
	new_address TEXT NOT NULL CHECK (new_address <> ''),
	kind        TEXT NOT NULL CHECK (kind IN ('move', 'add')),
	asked_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX address_changes_address ON address_changes (address);

CREATE TABLE address_aliases (
	alias         TEXT PRIMARY KEY CHECK (alias <> ''),
	address       TEXT NOT NULL REFERENCES players (address),
	alias_mailbox TEXT NOT NULL CHECK (alias_mailbox <> ''),
	mailbox       TEXT NOT NULL CHECK (mailbox <> '')
) STRICT;
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
