-- +goose Up
-- The language pbem writes to a player in (issue 39), a BCP 47 tag:
-- 'en' or 'de'; '' while pbem has not met him (an address only invited
-- so far), when his invitation goes out in the inviter's language. His
-- first mail sets it (German when it shows German), `language` changes
-- it. Players met before this migration keep English.
ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT '';
UPDATE players SET language = 'en';

-- +goose Down
ALTER TABLE players DROP COLUMN language;
