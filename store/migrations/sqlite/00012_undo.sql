-- Undo by agreement (issue 14, item 5): a player's proposal to take back
-- his last command, waiting for the others' answers.
--
-- A game has at most one proposal at a time. seq is the move to be taken
-- back; agreed has bit N set once seat N answered agree. A proposal ends
-- when it applies, at the first refuse, when anyone moves, or at
-- expires_at (Unix seconds), which the deadline sweep finds through
-- undos_expiry. What is taken back is recorded in the move log as an
-- "undo" line; this row only holds the vote.

-- +goose Up

CREATE TABLE undos (
	game_id     INTEGER PRIMARY KEY REFERENCES games (id),
	seat        INTEGER NOT NULL CHECK (seat >= 0),
	seq         INTEGER NOT NULL CHECK (seq > 0),
	agreed      INTEGER NOT NULL DEFAULT 0 CHECK (agreed >= 0),
	proposed_at INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX undos_expiry ON undos (expires_at);

-- +goose Down

DROP INDEX undos_expiry;
DROP TABLE undos;
