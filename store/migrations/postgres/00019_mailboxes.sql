-- +goose Up
-- One mailbox, one budget (issue 33): see migrations/sqlite/00019_mailboxes.sql.
CREATE TABLE mailboxes (
	mailbox        TEXT PRIMARY KEY,
	answered_at    BIGINT,
	no_invitations BIGINT NOT NULL DEFAULT 0 CHECK (no_invitations IN (0, 1))
);

INSERT INTO mailboxes (mailbox, answered_at, no_invitations)
SELECT CASE WHEN dom IN ('gmail.com', 'googlemail.com') THEN replace(base, '.', '') || '@gmail.com' ELSE base || '@' || dom END,
       max(answered), max(never)
FROM (
	SELECT CASE WHEN strpos(loc, '+') > 1 THEN substr(loc, 1, strpos(loc, '+') - 1) ELSE loc END AS base, dom, answered, never
	FROM (
		SELECT substr(address, 1, strpos(address, '@') - 1) AS loc, substr(address, strpos(address, '@') + 1) AS dom,
		       CASE WHEN address IN (
		                SELECT address FROM seats WHERE seat > 0 AND state IN ('joined', 'resigned')
		                UNION
		                SELECT s.address FROM inbound i JOIN seats s ON s.token = lower(i.token) AND s.address = i.from_addr
		            ) THEN 0 END AS answered,
		       no_invitations AS never
		FROM players
		WHERE strpos(address, '@') > 1 AND address NOT LIKE '%@bot.pbem.invalid'
	) AS split
) AS keyed
WHERE answered IS NOT NULL OR never = 1
GROUP BY 1;

-- +goose Down
DROP TABLE mailboxes;
