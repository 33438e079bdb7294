-- Per-game deadlines and escalating reminders (issue 14).
--
-- games.turn_time is the game's time for each decision in seconds, chosen
-- with `new GAME with ... deadline 48h` or service.turn_time when the game
-- was made. It is fixed then, because the first mail promised it; NULL for
-- a game made before it was stored, which keeps service.turn_time.
--
-- seats.waiting_since is when the seat's pending decision began (Unix
-- seconds, set by NewDecision), so that a status can say since when the
-- game waits on the player; it is public, as the waiting is.
--
-- seats.remind_at is when the seat's next reminder step falls due, and
-- remind_lead that step's distance before the deadline in seconds (the
-- step's name in its Message-ID, so that each step is sent once). Indexed
-- so that the sweep reads only the reminders due. A decision pending at
-- the upgrade gets the default last step, 12 hours before its deadline
-- (the daemon sets every later decision's steps from service.reminders).

-- +goose Up

ALTER TABLE games ADD COLUMN turn_time INTEGER CHECK (turn_time IS NULL OR turn_time > 0);
ALTER TABLE seats ADD COLUMN waiting_since INTEGER;
ALTER TABLE seats ADD COLUMN remind_at INTEGER;
ALTER TABLE seats ADD COLUMN remind_lead INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seats_remind_at ON seats (remind_at) WHERE remind_at IS NOT NULL;
UPDATE seats SET remind_at = deadline - 43200, remind_lead = 43200 WHERE deadline IS NOT NULL;

-- +goose Down

DROP INDEX seats_remind_at;
ALTER TABLE seats DROP COLUMN remind_lead;
ALTER TABLE seats DROP COLUMN remind_at;
ALTER TABLE seats DROP COLUMN waiting_since;
ALTER TABLE games DROP COLUMN turn_time;
