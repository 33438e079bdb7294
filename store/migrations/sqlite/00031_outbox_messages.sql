-- +goose Up
-- A mail's message (its headers and body, 20-30 kB) leaves its outbox
-- row for a row of its own in outbox_messages (issue 40). The outbox row
-- is written three times (queued, claimed, marked sent), and SQLite
-- writes a row whole each time its size changes: the message's overflow
-- pages were copied into the log, and later into the file, three times
-- for every mail sent. Now the message is written once, and the outbox
-- row is small. Retention deletes the message rather than emptying a
-- column; message_size keeps its size until then, 0 after, which is
-- what the outbox_bodies index looks for. The foreign key's cascade
-- deletes a message with its row, whoever deletes the row: SQLite gives
-- a new row the largest id again once that row is gone, and a message
-- left behind would stand for the next mail's (a test that deleted rows
-- without it found exactly that).
CREATE TABLE outbox_messages (
	id  INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
	raw BLOB NOT NULL
) STRICT;
INSERT INTO outbox_messages (id, raw) SELECT id, raw FROM outbox WHERE length(raw) > 0;
ALTER TABLE outbox ADD COLUMN message_size INTEGER NOT NULL DEFAULT 0;
UPDATE outbox SET message_size = length(raw) WHERE length(raw) > 0;
DROP INDEX outbox_bodies;
ALTER TABLE outbox DROP COLUMN raw;
CREATE INDEX outbox_bodies ON outbox (coalesce(sent_at, not_before))
	WHERE state <> 'pending' AND message_size > 0;

-- +goose Down
ALTER TABLE outbox ADD COLUMN raw BLOB NOT NULL DEFAULT x'';
UPDATE outbox SET raw = (SELECT m.raw FROM outbox_messages m WHERE m.id = outbox.id)
	WHERE id IN (SELECT id FROM outbox_messages);
DROP INDEX outbox_bodies;
ALTER TABLE outbox DROP COLUMN message_size;
CREATE INDEX outbox_bodies ON outbox (coalesce(sent_at, not_before))
	WHERE state <> 'pending' AND length(raw) > 0;
DROP TABLE outbox_messages;
