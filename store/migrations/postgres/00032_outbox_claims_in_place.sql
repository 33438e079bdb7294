-- +goose Up
-- A claim rewrites an outbox row in place (issue 40). Claiming a mail
-- sets claimed_by and claimed_until; when neither is indexed and the
-- row's page has room, PostgreSQL writes the new version on the same
-- page and adds no index entry (a heap-only tuple). outbox_claims
-- indexed claimed_by, so every claim wrote a new entry into each of the
-- outbox's indexes: under a load of games no update of the outbox was
-- heap-only, a claim of a dozen mails wrote 9 kB of WAL, and the claim's
-- scan of outbox_due walked past two dead entries of every mail sent
-- since the last vacuum (935 buffers a claim, 1.8 ms). Only a node
-- starting again looked its claims up by name, and the few pending rows
-- (outbox_due) find them as well. A fill factor of 60 leaves each page
-- room for its rows' claims.
DROP INDEX outbox_claims;
ALTER TABLE outbox SET (fillfactor = 60);

-- +goose Down
ALTER TABLE outbox RESET (fillfactor);
CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;
