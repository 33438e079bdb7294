-- +goose Up
-- A game's own notify setting (issue 37, one-click unsubscribe: "that
-- game's mail off"): '' follows the player's (players.notify); any other
-- value is what pbem mails him about this game, whatever his own
-- setting. `notify off here` sets it, as the one-click POST does.
ALTER TABLE seats ADD COLUMN notify TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE seats DROP COLUMN notify;
