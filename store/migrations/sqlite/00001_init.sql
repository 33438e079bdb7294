-- The first schema of pbem's store. Times are INTEGER unix seconds in UTC;
-- NULL where a time is optional and absent. Addresses are normalised
-- (trimmed, lower-case) before they reach SQL.

-- +goose Up

CREATE TABLE players (
	address   TEXT PRIMARY KEY,
	name      TEXT NOT NULL DEFAULT '',
	time_zone TEXT NOT NULL DEFAULT 'UTC',
	notify    TEXT NOT NULL DEFAULT 'all' CHECK (notify IN ('all', 'turns', 'off'))
) STRICT;

CREATE TABLE games (
	id           INTEGER PRIMARY KEY,
	kind         TEXT NOT NULL CHECK (kind <> ''),
	setup        BLOB NOT NULL,
	options      BLOB,
	creator      TEXT NOT NULL REFERENCES players (address),
	status       TEXT NOT NULL DEFAULT 'inviting'
		CHECK (status IN ('inviting', 'active', 'paused', 'finished', 'aborted', 'declined')),
	snapshot     BLOB,
	snapshot_seq INTEGER NOT NULL DEFAULT 0 CHECK (snapshot_seq >= 0),
	created_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE seats (
	game_id           INTEGER NOT NULL REFERENCES games (id),
	seat              INTEGER NOT NULL CHECK (seat >= 0),
	address           TEXT NOT NULL REFERENCES players (address),
	name              TEXT NOT NULL,
	token             TEXT NOT NULL UNIQUE CHECK (token <> ''),
	state             TEXT NOT NULL DEFAULT 'invited' CHECK (state IN ('invited', 'joined', 'declined', 'resigned')),
	deadline          INTEGER,
	thread_root       TEXT NOT NULL DEFAULT '',
	last_message_id   TEXT NOT NULL DEFAULT '',
	last_mailed_event INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, address)
) STRICT;

CREATE INDEX seats_address ON seats (address);
CREATE INDEX seats_deadline ON seats (deadline) WHERE deadline IS NOT NULL;

-- Every message the daemon has taken from IMAP, whatever became of it.
CREATE TABLE inbound (
	id           INTEGER PRIMARY KEY,
	message_id   TEXT NOT NULL,
	mailbox      TEXT NOT NULL,
	uid_validity INTEGER NOT NULL,
	uid          INTEGER NOT NULL,
	from_addr    TEXT NOT NULL,
	token        TEXT NOT NULL DEFAULT '',
	game_id      INTEGER REFERENCES games (id),
	outcome      TEXT NOT NULL CHECK (outcome <> ''),
	detail       TEXT NOT NULL DEFAULT '',
	received_at  INTEGER NOT NULL
) STRICT;

-- A message is the same message if it has the same Message-ID, or the same
-- UID in the same mailbox of the same UIDVALIDITY epoch.
CREATE UNIQUE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
CREATE UNIQUE INDEX inbound_uid ON inbound (mailbox, uid_validity, uid) WHERE uid > 0;

-- The command log (transcript) of each game: the game is a pure function of
-- its set-up and these commands in seq order.
CREATE TABLE moves (
	game_id    INTEGER NOT NULL,
	seq        INTEGER NOT NULL CHECK (seq > 0),
	seat       INTEGER NOT NULL,
	command    TEXT NOT NULL CHECK (command <> ''),
	source     TEXT NOT NULL CHECK (source IN ('mail', 'deadline') OR source GLOB 'admin:?*'),
	inbound_id INTEGER REFERENCES inbound (id),
	at         INTEGER NOT NULL,
	PRIMARY KEY (game_id, seq),
	FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
) STRICT;

-- What happened in each game, as told to the players. to_seat is -1 for
-- public events. seq is the move that caused the event, 0 for events before
-- the first move or not caused by one.
CREATE TABLE events (
	id      INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	to_seat INTEGER NOT NULL CHECK (to_seat >= -1),
	kind    TEXT NOT NULL,
	text    TEXT NOT NULL
) STRICT;

CREATE INDEX events_game ON events (game_id, id);

-- Outgoing mail. A row is pending until the sender marks it sent or dead.
CREATE TABLE outbox (
	id         INTEGER PRIMARY KEY,
	message_id TEXT NOT NULL UNIQUE CHECK (message_id <> ''),
	game_id    INTEGER REFERENCES games (id),
	rcpt       TEXT NOT NULL CHECK (rcpt <> ''),
	raw        BLOB NOT NULL,
	state      TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dead')),
	attempts   INTEGER NOT NULL DEFAULT 0,
	not_before INTEGER NOT NULL,
	last_error TEXT NOT NULL DEFAULT '',
	sent_at    INTEGER
) STRICT;

CREATE INDEX outbox_due ON outbox (not_before, id) WHERE state = 'pending';

-- How far the daemon has read each IMAP mailbox.
CREATE TABLE imap_cursor (
	mailbox      TEXT PRIMARY KEY,
	uid_validity INTEGER NOT NULL,
	last_uid     INTEGER NOT NULL
) STRICT;

-- Refusal replies sent, for rate limiting them per address.
CREATE TABLE refusals (
	id      INTEGER PRIMARY KEY,
	address TEXT NOT NULL,
	at      INTEGER NOT NULL
) STRICT;

CREATE INDEX refusals_address ON refusals (address, at);

-- What admins (and the service on their behalf) did.
CREATE TABLE audit (
	id      INTEGER PRIMARY KEY,
	game_id INTEGER REFERENCES games (id),
	actor   TEXT NOT NULL CHECK (actor <> ''),
	action  TEXT NOT NULL CHECK (action <> ''),
	detail  TEXT NOT NULL DEFAULT '',
	at      INTEGER NOT NULL
) STRICT;

CREATE INDEX audit_game ON audit (game_id, id);

-- +goose Down

DROP TABLE audit;
DROP TABLE refusals;
DROP TABLE imap_cursor;
DROP TABLE outbox;
DROP TABLE events;
DROP TABLE moves;
DROP TABLE inbound;
DROP TABLE seats;
DROP TABLE games;
DROP TABLE players;
