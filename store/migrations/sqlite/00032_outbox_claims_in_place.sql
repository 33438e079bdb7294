-- +goose Up
-- outbox_claims goes (issue 40; migrations/postgres/00032 says why it
-- matters most there). On SQLite too a claim and a mark each wrote an
-- entry of it for every mail; only a node starting again looked its
-- claims up by name (ReleaseNodeClaims), and the few pending rows
-- (outbox_due) find them as well.
DROP INDEX outbox_claims;

-- +goose Down
CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;
