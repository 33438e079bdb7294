-- +goose Up
-- Only a true redelivery is skipped (issue 33): see
-- migrations/sqlite/00020_inbound_same_mail.sql.
ALTER TABLE inbound ADD COLUMN sent_as TEXT NOT NULL DEFAULT '';
ALTER TABLE inbound ADD COLUMN digest TEXT NOT NULL DEFAULT '';
UPDATE inbound SET digest = message_id, message_id = '' WHERE message_id LIKE 'lmtp:sha256:%';
UPDATE inbound SET sent_as = from_addr || ' ' || lower(token) || ' ' || message_id WHERE message_id <> '';
DROP INDEX inbound_message_id;
CREATE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
CREATE UNIQUE INDEX inbound_sent_as ON inbound (sent_as) WHERE sent_as <> '';
CREATE UNIQUE INDEX inbound_digest ON inbound (digest) WHERE digest <> '';

-- +goose Down
DROP INDEX inbound_digest;
DROP INDEX inbound_sent_as;
DROP INDEX inbound_message_id;
UPDATE inbound SET message_id = digest WHERE message_id = '' AND digest LIKE 'lmtp:sha256:%';
UPDATE inbound SET message_id = '' WHERE message_id <> ''
	AND id > (SELECT min(i.id) FROM inbound i WHERE i.message_id = inbound.message_id);
CREATE UNIQUE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
ALTER TABLE inbound DROP COLUMN digest;
ALTER TABLE inbound DROP COLUMN sent_as;
