-- Vacations (issue 14, item 4).
--
-- players.away_until is when the player's current vacation ends (Unix
-- seconds), NULL when he is not away: back clears it, and so does the
-- deadline sweep once the vacation has run out (it tells his tables he is
-- back), which the partial index lets it find cheaply. vacations keeps every vacation
-- taken, from its start to its end (its planned end until he is back; his
-- real return once he sends back), so that the days taken in a year can be
-- counted against service.vacation_days.

-- +goose Up

ALTER TABLE players ADD COLUMN away_until INTEGER;
CREATE TABLE vacations (
	id INTEGER PRIMARY KEY,
	address TEXT NOT NULL REFERENCES players (address),
	start INTEGER NOT NULL,
	until INTEGER NOT NULL,
	CHECK (until >= start)
);
CREATE INDEX vacations_address ON vacations (address, start);
CREATE INDEX players_away_until ON players (away_until) WHERE away_until IS NOT NULL;

-- +goose Down

DROP INDEX players_away_until;
DROP INDEX vacations_address;
DROP TABLE vacations;
ALTER TABLE players DROP COLUMN away_until;
