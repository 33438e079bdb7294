-- +goose Up
-- The games that are over whose mail retention has not yet forgotten
-- (issue 15). Retention deletes the outbox rows of games that are over;
-- it used to find them by reading the whole outbox, every pass. A game
-- enters this table when it ends (SetGameStatus) and leaves it once none
-- of its mail is left, so it holds the games that ended in the last
-- [retention] mail_bodies, whatever the number of games.
CREATE TABLE ended_games (
	game_id INTEGER PRIMARY KEY
) STRICT;

-- A game's mail, by game: what retention deletes of a game in the table
-- above, and whether any is left.
CREATE INDEX outbox_game ON outbox (game_id);

INSERT INTO ended_games (game_id)
	SELECT id FROM games
	WHERE status IN ('finished', 'aborted', 'declined')
	AND EXISTS (SELECT 1 FROM outbox WHERE outbox.game_id = games.id);

-- +goose Down
DROP INDEX outbox_game;
DROP TABLE ended_games;
