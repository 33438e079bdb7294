-- +goose Up
-- Each player's calendar feed (issue 38, part 4): /c/TOKEN.ics lists the
-- deadlines of the decisions he owes in all his games. The token is a
-- secret of its own, 128 random bits as a seat page's (web_links), and
-- leads to one player: the row is keyed by his address, which
-- MoveAddress moves. `link new` replaces the token.
CREATE TABLE calendar_feeds (
	token   TEXT PRIMARY KEY CHECK (token <> ''),
	address TEXT NOT NULL UNIQUE REFERENCES players (address)
) STRICT;

-- +goose Down
DROP TABLE calendar_feeds;
