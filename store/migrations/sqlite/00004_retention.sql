-- Retention (store/retention.go): the bodies of old sent mail and the
-- details of old inbound mail are dropped, and the file gives the space
-- back.
--
-- Two partial indexes hold exactly the rows a retention pass may still
-- trim, ordered by age, so that a pass finds them without reading the
-- whole outbox or inbound table, and a trimmed row leaves the index.
--
-- auto_vacuum = INCREMENTAL makes SQLite keep the bookkeeping (pointer-map
-- pages) that lets `PRAGMA incremental_vacuum(N)` move up to N free pages
-- to the end of the file and truncate them, in short steps, while the
-- daemon runs. The mode takes effect on a database that already has tables
-- only through a VACUUM, and VACUUM cannot run inside a transaction, hence
-- NO TRANSACTION. Each statement is safe to run again, so a crash part way
-- leaves a database this migration completes on the next start. The
-- VACUUM rewrites the whole file once and needs as much free disk space as
-- the file takes (docs/store.md, "Retention").

-- +goose NO TRANSACTION

-- +goose Up

CREATE INDEX IF NOT EXISTS outbox_bodies ON outbox (coalesce(sent_at, not_before))
	WHERE state <> 'pending' AND length(raw) > 0;
CREATE INDEX IF NOT EXISTS inbound_details ON inbound (received_at) WHERE detail <> '';
PRAGMA auto_vacuum = INCREMENTAL;
VACUUM;

-- +goose Down

DROP INDEX IF EXISTS inbound_details;
DROP INDEX IF EXISTS outbox_bodies;
PRAGMA auto_vacuum = NONE;
VACUUM;
