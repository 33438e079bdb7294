-- Mail settings (issue 13: a mail only when it matters).
--
-- notify gains two values: normal, the new default (a mail when the player
-- must decide, when a round or session result changes what he knows, at
-- the start and the end, and answers to his own mail), and digest (at most
-- one mail a day, at digest_hour in his time zone). SQLite cannot widen the
-- CHECK of players.notify without copying the table, which every game and
-- seat references, so the setting moves to a new column, mail_notify, and
-- players.notify is no longer read. No player chose the old default (all)
-- explicitly in a way the store can tell from taking it, so every `all`
-- becomes `normal`; an explicit `turns` or `off` is kept.
--
-- confirm (1 or 0): whether a mail whose commands were applied is answered
-- when the answer would say nothing but that (confirm off). Errors are
-- always answered.
--
-- digest_hour is the hour of the day (0-23, in the player's time zone) his
-- digest goes out; digest_due the next time it is due (Unix seconds), set
-- while notify is digest and indexed so that the sweep touches only the
-- players whose digest is due.

-- +goose Up

ALTER TABLE players ADD COLUMN mail_notify TEXT NOT NULL DEFAULT 'normal'
	CHECK (mail_notify IN ('all', 'normal', 'turns', 'digest', 'off'));
UPDATE players SET mail_notify = notify WHERE notify IN ('turns', 'off');
ALTER TABLE players ADD COLUMN confirm INTEGER NOT NULL DEFAULT 1 CHECK (confirm IN (0, 1));
ALTER TABLE players ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE players ADD COLUMN digest_due INTEGER;
CREATE INDEX players_digest_due ON players (digest_due) WHERE digest_due IS NOT NULL;

-- +goose Down

DROP INDEX players_digest_due;
ALTER TABLE players DROP COLUMN digest_due;
ALTER TABLE players DROP COLUMN digest_hour;
ALTER TABLE players DROP COLUMN confirm;
UPDATE players SET notify = mail_notify WHERE mail_notify IN ('turns', 'off');
ALTER TABLE players DROP COLUMN mail_notify;
