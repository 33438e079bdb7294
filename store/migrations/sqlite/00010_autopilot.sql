-- Autopilot (issue 14): a seat whose player missed autopilot_after
-- deadlines in a row is played by pbem with the default moves, at once,
-- until the player sends a command again.
--
-- missed counts the seat's consecutive missed deadlines: a default move
-- made because the deadline passed adds one, a move of the player's own
-- sets it back to 0. autopilot (1 or 0) says that pbem plays the seat now.
-- Unlike a resignation it is not for good: the player's next move or
-- `back` takes the seat back.

-- +goose Up

ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);
ALTER TABLE seats ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0 CHECK (autopilot IN (0, 1));

-- +goose Down

ALTER TABLE seats DROP COLUMN autopilot;
ALTER TABLE seats DROP COLUMN missed;
