-- A mail's message leaves its outbox row for a row of its own in
-- outbox_messages, as on SQLite (its migration 00031 says why), where
-- the schemas must be the same for pbem store copy. PostgreSQL already
-- kept the message out of line (TOAST), so here it changes little: the
-- message is compressed with LZ4 as before (migration 00030).

-- +goose Up
CREATE TABLE outbox_messages (
	id  BIGINT PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
	raw BYTEA NOT NULL
);
-- +goose StatementBegin
DO $$
BEGIN
	EXECUTE 'ALTER TABLE outbox_messages ALTER COLUMN raw SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported THEN
	RAISE NOTICE 'this PostgreSQL has no LZ4: outbox messages stay compressed with pglz';
END
$$;
-- +goose StatementEnd
INSERT INTO outbox_messages (id, raw) SELECT id, raw FROM outbox WHERE length(raw) > 0;
ALTER TABLE outbox ADD COLUMN message_size BIGINT NOT NULL DEFAULT 0;
UPDATE outbox SET message_size = length(raw) WHERE length(raw) > 0;
DROP INDEX outbox_bodies;
ALTER TABLE outbox DROP COLUMN raw;
CREATE INDEX outbox_bodies ON outbox (coalesce(sent_at, not_before))
	WHERE state <> 'pending' AND message_size > 0;

-- +goose Down
ALTER TABLE outbox ADD COLUMN raw BYTEA NOT NULL DEFAULT '';
UPDATE outbox SET raw = m.raw FROM outbox_messages m WHERE m.id = outbox.id;
DROP INDEX outbox_bodies;
ALTER TABLE outbox DROP COLUMN message_size;
CREATE INDEX outbox_bodies ON outbox (coalesce(sent_at, not_before))
	WHERE state <> 'pending' AND length(raw) > 0;
DROP TABLE outbox_messages;
