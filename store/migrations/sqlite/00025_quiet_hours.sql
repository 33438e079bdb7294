-- +goose Up
-- Quiet hours (issue 38): the hours of a player's night, in his own
-- zone (players.time_zone), in which no deadline of his ends, no
-- reminder reaches him and pbem makes no default move for him. From
-- quiet_start to quiet_end, whole hours 0-23, wrapping midnight when the
-- end is not after the start; the same hour twice is off (`quiet off`).
ALTER TABLE players ADD COLUMN quiet_start INTEGER NOT NULL DEFAULT 22 CHECK (quiet_start BETWEEN 0 AND 23);
ALTER TABLE players ADD COLUMN quiet_end INTEGER NOT NULL DEFAULT 8 CHECK (quiet_end BETWEEN 0 AND 23);
-- A player whose deadlines are shown in UTC is asked once, in his first
-- game mail, whether he lives elsewhere: zone_guess is the zone his mail's
-- Date offset suggests ('' when none), zone_asked whether he was asked.
ALTER TABLE players ADD COLUMN zone_guess TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN zone_asked INTEGER NOT NULL DEFAULT 0 CHECK (zone_asked IN (0, 1));
-- A game's weekends off (`new ... weekends off`): its clocks stop on
-- Saturday and Sunday, each player's in his own zone.
ALTER TABLE games ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0 CHECK (weekends_off IN (0, 1));

-- +goose Down
ALTER TABLE games DROP COLUMN weekends_off;
ALTER TABLE players DROP COLUMN zone_asked;
ALTER TABLE players DROP COLUMN zone_guess;
ALTER TABLE players DROP COLUMN quiet_end;
ALTER TABLE players DROP COLUMN quiet_start;
