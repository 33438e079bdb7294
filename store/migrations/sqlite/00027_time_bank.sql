-- +goose Up
-- A game's time bank (issue 38, `new ... clock 2d+12h max 5d`), in
-- seconds: each player's bank at the start, what each of his moves adds,
-- and the most it holds (0: no cap). bank_start 0 is the classic time
-- per decision (turn_time).
ALTER TABLE games ADD COLUMN bank_start INTEGER NOT NULL DEFAULT 0 CHECK (bank_start >= 0);
ALTER TABLE games ADD COLUMN bank_increment INTEGER NOT NULL DEFAULT 0 CHECK (bank_increment >= 0);
ALTER TABLE games ADD COLUMN bank_max INTEGER NOT NULL DEFAULT 0 CHECK (bank_max >= 0);
-- A seat's bank, in seconds: what it held when the seat's pending
-- decision began, or what it holds now when the game waits for nothing
-- from the seat. While a decision runs, what is left is counted from its
-- deadline (the deadline is when the bank runs out).
ALTER TABLE seats ADD COLUMN bank INTEGER NOT NULL DEFAULT 0 CHECK (bank >= 0);
-- The mover's clock when his decision ended with this move, in seconds,
-- before the move's increment: what the export shows, and what an undo
-- of the move gives back. NULL in a game without a bank, and for moves
-- that ended no decision of a banked seat.
ALTER TABLE moves ADD COLUMN clock_left INTEGER CHECK (clock_left >= 0);

-- +goose Down
ALTER TABLE moves DROP COLUMN clock_left;
ALTER TABLE seats DROP COLUMN bank;
ALTER TABLE games DROP COLUMN bank_max;
ALTER TABLE games DROP COLUMN bank_increment;
ALTER TABLE games DROP COLUMN bank_start;
