-- +goose Up
-- The web pages' links (issue 28). A seat's page is /s/TOKEN: the token
-- is a secret of its own, 128 random bits, not the seat's mail token, so
-- that a leaked link can show the table and never play. seat is the
-- seat, or -1 (engine.Public) for the game's public page, which exists
-- while the creator has the game open to spectators. A seat has at most
-- one link; `link new` replaces it.
CREATE TABLE web_links (
	token   TEXT PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id),
	seat    INTEGER NOT NULL CHECK (seat >= -1),
	UNIQUE (game_id, seat)
) STRICT;

-- +goose Down
DROP TABLE web_links;
