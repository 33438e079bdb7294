-- +goose Up
-- Ratings are a mailbox's (issue 33): see
-- migrations/sqlite/00021_rating_mailbox.sql.
ALTER TABLE rated_seats ADD COLUMN mailbox TEXT NOT NULL DEFAULT '';
UPDATE rated_seats SET mailbox = address;
CREATE INDEX rated_seats_mailbox ON rated_seats (mailbox);
DROP INDEX rated_seats_address;
ALTER TABLE ratings RENAME COLUMN address TO mailbox;

-- +goose Down
ALTER TABLE ratings RENAME COLUMN mailbox TO address;
CREATE INDEX rated_seats_address ON rated_seats (address);
DROP INDEX rated_seats_mailbox;
ALTER TABLE rated_seats DROP COLUMN mailbox;
