-- +goose Up
-- Outbox claims (issue 27): every node on one database sends mail, each
-- taking a batch of due rows for itself before it sends them
-- (store/claim.go, ClaimOutgoing). claimed_by names the node, and
-- claimed_until (unix milliseconds, the node's clock, as leases) is when
-- the claim lapses: a node that dies mid-batch leaves its rows to the
-- others once it has. A mark (sent, failed, dead) ends the claim; a row
-- never claimed, or whose claim lapsed, has no live claim.
--
-- outbox_rcpt_pending finds a recipient's earlier pending mail, which a
-- claim looks for to keep one recipient's mail in order across nodes;
-- outbox_claims a node's claims, which it releases as it starts again
-- (the marks clear the claims of the rest, so the index stays small).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
CREATE INDEX outbox_rcpt_pending ON outbox (rcpt, id) WHERE state = 'pending';
CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;

-- +goose Down
DROP INDEX outbox_claims;
DROP INDEX outbox_rcpt_pending;
ALTER TABLE outbox DROP COLUMN claimed_until;
ALTER TABLE outbox DROP COLUMN claimed_by;
