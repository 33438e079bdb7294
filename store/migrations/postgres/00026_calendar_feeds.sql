-- +goose Up
-- Each player's calendar feed (issue 38, part 4): see
-- migrations/sqlite/00026_calendar_feeds.sql.
CREATE TABLE calendar_feeds (
	token   TEXT PRIMARY KEY CHECK (token <> ''),
	address TEXT NOT NULL UNIQUE REFERENCES players (address)
);

-- +goose Down
DROP TABLE calendar_feeds;
