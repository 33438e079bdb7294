-- Stale replies, and events for everyone but one seat.
--
-- seats.decision counts the decisions a seat has been asked for: it grows
-- each time the game starts waiting on the seat afresh. Each outgoing mail
-- threaded under a seat remembers the seat's decision and the last event
-- its reader had been told, so that a reply to an old mail can be told
-- from a reply to the current one (docs/commands.md, "Replies to old
-- mails").
--
-- events.to_seat may now be below -1: -2-N addresses every seat but N
-- (engine.Others), so that an actor is not told twice what he did. SQLite
-- cannot change a CHECK constraint in place, hence the copy.

-- +goose Up

ALTER TABLE seats ADD COLUMN decision INTEGER NOT NULL DEFAULT 0 CHECK (decision >= 0);

ALTER TABLE outbox ADD COLUMN seat INTEGER;
ALTER TABLE outbox ADD COLUMN decision INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN seen_event INTEGER NOT NULL DEFAULT 0;

CREATE TABLE events_any_seat (
	id      INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	to_seat INTEGER NOT NULL,
	kind    TEXT NOT NULL,
	text    TEXT NOT NULL
) STRICT;
INSERT INTO events_any_seat (id, game_id, seq, to_seat, kind, text)
	SELECT id, game_id, seq, to_seat, kind, text FROM events;
DROP TABLE events;
ALTER TABLE events_any_seat RENAME TO events;
CREATE INDEX events_game ON events (game_id, id);

-- +goose Down

CREATE TABLE events_old (
	id      INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	to_seat INTEGER NOT NULL CHECK (to_seat >= -1),
	kind    TEXT NOT NULL,
	text    TEXT NOT NULL
) STRICT;
INSERT INTO events_old (id, game_id, seq, to_seat, kind, text)
	SELECT id, game_id, seq, to_seat, kind, text FROM events WHERE to_seat >= -1;
DROP TABLE events;
ALTER TABLE events_old RENAME TO events;
CREATE INDEX events_game ON events (game_id, id);

ALTER TABLE outbox DROP COLUMN seen_event;
ALTER TABLE outbox DROP COLUMN decision;
ALTER TABLE outbox DROP COLUMN seat;
ALTER TABLE seats DROP COLUMN decision;
