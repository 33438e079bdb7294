-- +goose Up
-- Bot seats (issue 16). A seat played by pbem's bot has its level here
-- ('easy', 'normal' or 'strong'); '' is a person's seat. A bot seat still
-- has an address, in the reserved domain bot.pbem.invalid (RFC 2606:
-- .invalid never resolves), because a seat's address names its player
-- row; the daemon never mails it and refuses mail from it.
ALTER TABLE seats ADD COLUMN bot TEXT NOT NULL DEFAULT '' CHECK (bot IN ('', 'easy', 'normal', 'strong'));

-- +goose Down
ALTER TABLE seats DROP COLUMN bot;
