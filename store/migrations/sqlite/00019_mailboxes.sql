-- +goose Up
-- One mailbox, one budget (issue 33, docs/security.md): what pbem knows
-- of a mailbox, whatever spelling of it a mail names. mailbox is the key
-- the daemon makes of an address (internal/mailbox: lower-case, no
-- +sub-address, no dots at the providers that ignore them).
--
-- answered_at is when pbem first read a mail that only the mailbox's
-- owner could have sent: from it, at the address of one of its seats
-- (whose token was mailed to it alone), or authenticated when
-- trust_authentication_results is set. NULL: never answered, and the
-- mailbox gets few invitations and no unasked game mail beyond the
-- daily answer budget. 0: answered before this migration.
--
-- no_invitations is `never`, kept for the mailbox; players.no_invitations
-- is read no more. The rows below carry over what earlier versions knew,
-- keyed by the default rule ("+", Gmail's dots): the `never`s, and as
-- answered every address that joined a game it was invited to or mailed
-- one of its seats' addresses from its own address.
CREATE TABLE mailboxes (
	mailbox        TEXT PRIMARY KEY,
	answered_at    INTEGER,
	no_invitations INTEGER NOT NULL DEFAULT 0 CHECK (no_invitations IN (0, 1))
);

INSERT INTO mailboxes (mailbox, answered_at, no_invitations)
SELECT CASE WHEN dom IN ('gmail.com', 'googlemail.com') THEN replace(base, '.', '') || '@gmail.com' ELSE base || '@' || dom END,
       max(answered), max(never)
FROM (
	SELECT CASE WHEN instr(loc, '+') > 1 THEN substr(loc, 1, instr(loc, '+') - 1) ELSE loc END AS base, dom, answered, never
	FROM (
		SELECT substr(address, 1, instr(address, '@') - 1) AS loc, substr(address, instr(address, '@') + 1) AS dom,
		       CASE WHEN address IN (
		                SELECT address FROM seats WHERE seat > 0 AND state IN ('joined', 'resigned')
		                UNION
		                SELECT s.address FROM inbound i JOIN seats s ON s.token = lower(i.token) AND s.address = i.from_addr
		            ) THEN 0 END AS answered,
		       no_invitations AS never
		FROM players
		WHERE instr(address, '@') > 1 AND address NOT LIKE '%@bot.pbem.invalid'
	) AS split
) AS keyed
WHERE answered IS NOT NULL OR never = 1
GROUP BY 1;

-- +goose Down
DROP TABLE mailboxes;
