-- From this version pbem packs each mail's message itself, with S2,
-- before it writes it (store/messagecodec.go; issue 40): to about a
-- third of its 20-30 kB, a third of the pages of the log and the file.
-- The schema stays as it was; PostgreSQL's migration 00034 tells the
-- server not to compress the packed messages again.

-- +goose Up
SELECT 1;

-- +goose Down
-- An older pbem would send a packed message as it is, bytes no mail
-- client can read: going down is refused while one is stored. SQLite
-- has no statement that raises an error of its own, so the count of
-- packed messages goes through a CHECK that only 0 passes.
CREATE TEMP TABLE packed_messages_before_34 (packed INTEGER NOT NULL CHECK (packed = 0));
INSERT INTO packed_messages_before_34 SELECT count(*) FROM outbox_messages WHERE substr(raw, 1, 3) = x'007332';
DROP TABLE packed_messages_before_34;
