-- +goose Up
-- Outbox claims (issue 27): see migrations/sqlite/00018_outbox_claims.sql.
-- claimed_until is unix milliseconds.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT;
CREATE INDEX outbox_rcpt_pending ON outbox (rcpt, id) WHERE state = 'pending';
CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;

-- +goose Down
DROP INDEX outbox_claims;
DROP INDEX outbox_rcpt_pending;
ALTER TABLE outbox DROP COLUMN claimed_until;
ALTER TABLE outbox DROP COLUMN claimed_by;
