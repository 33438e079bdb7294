-- +goose Up
-- Ratings are a mailbox's (issue 33): alice@x.test and alice+2@x.test
-- reach one person's inbox, so they are one rated player, and a game
-- whose seats share a mailbox is not rated. rated_seats keeps the
-- address the player wrote (his chosen name is the players row's) and
-- gains the mailbox it reaches (internal/mailbox's Key, which the daemon
-- computes: the store knows no rule); ratings is keyed by the mailbox.
-- The rows rated before are each their address's own mailbox here;
-- pbem serve keys them by its rule when it starts (the daemon's
-- rekeyRatings), and computes the ratings again if that changed any.
ALTER TABLE rated_seats ADD COLUMN mailbox TEXT NOT NULL DEFAULT '';
UPDATE rated_seats SET mailbox = address;
CREATE INDEX rated_seats_mailbox ON rated_seats (mailbox);
DROP INDEX rated_seats_address;
ALTER TABLE ratings RENAME COLUMN address TO mailbox;
-- The dropped index's pages go back to the file system now, not at
-- retention's first pass (which counts what it reclaims).
PRAGMA incremental_vacuum;

-- +goose Down
ALTER TABLE ratings RENAME COLUMN mailbox TO address;
CREATE INDEX rated_seats_address ON rated_seats (address);
DROP INDEX rated_seats_mailbox;
ALTER TABLE rated_seats DROP COLUMN mailbox;
