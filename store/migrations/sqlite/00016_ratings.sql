-- +goose Up
-- Ratings (issue 28). A finished game among people is rated once, when
-- it ends: rated_games records it and rated_seats each player's finishing
-- rank and name then; ratings holds each player's current rating per game
-- kind (OpenSkill's mu and sigma, internal/rating). A player is his
-- address, so a new name keeps his rating. An admin may take a game out
-- of the ratings (removed = 1): the kind's ratings are then computed
-- again from its other games, in the order they were rated.
CREATE TABLE rated_games (
	game_id  INTEGER PRIMARY KEY REFERENCES games (id),
	kind     TEXT NOT NULL,
	rated_at INTEGER NOT NULL,
	removed  INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1))
) STRICT;
CREATE INDEX rated_games_kind ON rated_games (kind, rated_at);

CREATE TABLE rated_seats (
	game_id INTEGER NOT NULL REFERENCES rated_games (game_id),
	address TEXT NOT NULL,
	name    TEXT NOT NULL,
	rank    INTEGER NOT NULL,
	PRIMARY KEY (game_id, address)
) STRICT;
CREATE INDEX rated_seats_address ON rated_seats (address);

CREATE TABLE ratings (
	kind    TEXT NOT NULL,
	address TEXT NOT NULL,
	mu      REAL NOT NULL,
	sigma   REAL NOT NULL,
	games   INTEGER NOT NULL,
	PRIMARY KEY (kind, address)
) STRICT;

-- +goose Down
DROP TABLE ratings;
DROP TABLE rated_seats;
DROP TABLE rated_games;
