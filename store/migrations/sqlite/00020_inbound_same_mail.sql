-- +goose Up
-- Only a true redelivery is skipped (issue 33). An inbound mail used to
-- be seen before when its Message-ID alone had been recorded, so a
-- stranger who mailed first with the Message-ID a player's next mail
-- would carry (many clients make them predictably) had that mail
-- answered 250 and dropped. Now a mail is the same mail only when it
-- comes again:
--
--   - sent_as is its sender, the address of pbem's it was sent to and
--     its Message-ID, written by the daemon as store.SentAs makes it
--     ("from token message-id": the sender's address, lower-case; the
--     seat token the mail names, lower-case, or nothing for pbem's bare
--     address; the Message-ID). It is empty for a mail with no
--     Message-ID and for one pbem did not read (refused or ignored
--     before reading: a forgery, a hostile shape, automatic mail), so
--     that such a mail can make no other seen;
--   - digest is a digest of its bytes (lmtp:sha256:… for mail delivered
--     by LMTP, the bytes its client sent; sha256:… for mail read from
--     IMAP), the same each time the mail server hands the mail over;
--   - the rule of the same UID in the same mailbox and UIDVALIDITY epoch
--     (inbound_uid) stays.
--
-- message_id keeps the Message-ID for people and tools to find a mail by
-- (InboundByMessageID); its index is no longer unique, since two
-- senders' mails may carry one Message-ID.
--
-- Rows recorded before keep being known again: an LMTP mail without a
-- Message-ID had its digest in message_id, which moves to digest; every
-- other Message-ID becomes a sent_as of the row's sender, the seat token
-- it was routed to and the Message-ID.
ALTER TABLE inbound ADD COLUMN sent_as TEXT NOT NULL DEFAULT '';
ALTER TABLE inbound ADD COLUMN digest TEXT NOT NULL DEFAULT '';
UPDATE inbound SET digest = message_id, message_id = '' WHERE message_id LIKE 'lmtp:sha256:%';
UPDATE inbound SET sent_as = from_addr || ' ' || lower(token) || ' ' || message_id WHERE message_id <> '';
DROP INDEX inbound_message_id;
CREATE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
CREATE UNIQUE INDEX inbound_sent_as ON inbound (sent_as) WHERE sent_as <> '';
CREATE UNIQUE INDEX inbound_digest ON inbound (digest) WHERE digest <> '';

-- +goose Down
-- A Message-ID is unique again: of the rows that share one, the first
-- keeps it.
DROP INDEX inbound_digest;
DROP INDEX inbound_sent_as;
DROP INDEX inbound_message_id;
UPDATE inbound SET message_id = digest WHERE message_id = '' AND digest LIKE 'lmtp:sha256:%';
UPDATE inbound SET message_id = '' WHERE message_id <> ''
	AND id > (SELECT min(i.id) FROM inbound i WHERE i.message_id = inbound.message_id);
CREATE UNIQUE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
ALTER TABLE inbound DROP COLUMN digest;
ALTER TABLE inbound DROP COLUMN sent_as;
