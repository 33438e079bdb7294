-- A mail's message is compressed with LZ4 rather than PostgreSQL's own
-- pglz (issue 40). Every mail pbem writes is a 20-30 kB message that
-- PostgreSQL moves out of line (TOAST) and compresses as it is inserted:
-- with pglz that insert took 0.86 ms of the server's time, a third of
-- all the time its statements took under a load of games, more than any
-- other statement. LZ4 compresses as well for these messages (their
-- HTML repeats its styles) at a fraction of the CPU. Only new values are
-- compressed so; those stored before keep pglz, which PostgreSQL still
-- reads.
--
-- A server built without LZ4 (its configure --with-lz4, which Debian's
-- and most packages have) keeps pglz: the migration must not stop pbem
-- there, so it is run dynamically and that one error is let pass.

-- +goose Up
-- +goose StatementBegin
DO $$
BEGIN
	EXECUTE 'ALTER TABLE outbox ALTER COLUMN raw SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported THEN
	RAISE NOTICE 'this PostgreSQL has no LZ4: outbox messages stay compressed with pglz';
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE outbox ALTER COLUMN raw SET COMPRESSION default;
