-- Broken games (issue: a broken game must not stall the rest).
--
-- A game whose stored state no longer loads, or that the engine cannot
-- advance (an illegal default move, say), is set aside: games.broken holds
-- why, in words that name no hidden card, and broken_at when. The game
-- keeps its status, so that the admin's `retry` after a repair takes it up
-- where it stood; while broken is not empty its deadlines do not fall due
-- and mail to it is answered, not applied. A column rather than a status:
-- SQLite cannot widen a CHECK constraint without copying the table, and
-- the table is referenced by every other one.

-- +goose Up

ALTER TABLE games ADD COLUMN broken TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN broken_at INTEGER;

-- +goose Down

ALTER TABLE games DROP COLUMN broken_at;
ALTER TABLE games DROP COLUMN broken;
