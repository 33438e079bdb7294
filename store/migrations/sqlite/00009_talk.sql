-- Table talk (issue 14, items 6 and 7): `say` and `poke` in a game's
-- thread.
--
-- talk has one row per say or poke a seat made, with its time (Unix
-- seconds), so that the daily limits (a few says per game and day, one
-- poke per game and day) survive a restart. The words said are not here:
-- they are an event of the game's log, like everything its players read.
-- Rows older than a day are dropped when the seat talks again, so a seat
-- holds at most a day's worth.

-- +goose Up

CREATE TABLE talk (
	game_id INTEGER NOT NULL REFERENCES games (id),
	seat    INTEGER NOT NULL,
	kind    TEXT NOT NULL CHECK (kind IN ('say', 'poke')),
	at      INTEGER NOT NULL
);
CREATE INDEX talk_seat ON talk (game_id, seat, kind, at);

-- +goose Down

DROP INDEX talk_seat;
DROP TABLE talk;
