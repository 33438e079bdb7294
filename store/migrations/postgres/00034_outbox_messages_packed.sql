-- From this version pbem packs each mail's message itself, with S2,
-- before it writes it (store/messagecodec.go; issue 40): to about a
-- third of its 20-30 kB, which PostgreSQL can compress no further. So
-- the server no longer tries (STORAGE EXTERNAL), and keeps a packed
-- message in its row unless the row passes 8160 bytes, the largest
-- target (toast_tuple_target): it was cut into TOAST chunks past 2 kB,
-- each a row and an index entry of its own. A value stored before,
-- compressed with LZ4 out of line, stays as it is and reads the same.
-- The same migration on SQLite changes nothing in its schema.

-- +goose Up
ALTER TABLE outbox_messages ALTER COLUMN raw SET STORAGE EXTERNAL, SET (toast_tuple_target = 8160);

-- +goose Down
-- An older pbem would send a packed message as it is, bytes no mail
-- client can read: going down is refused while one is stored.
-- +goose StatementBegin
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM outbox_messages WHERE substr(raw, 1, 3) = '\x007332'::bytea) THEN
		RAISE EXCEPTION 'outbox messages are packed (migration 34), which pbem before it cannot read';
	END IF;
END
$$;
-- +goose StatementEnd
ALTER TABLE outbox_messages ALTER COLUMN raw SET STORAGE EXTENDED, RESET (toast_tuple_target);
