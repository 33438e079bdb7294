-- From this version the events' id sequence steps by 16: a transaction
-- that reads a game's event log under its lock reserves the ids of the
-- events it appends (store/txevents.go) with one value of the sequence,
-- the first of a block of 16 that no other transaction is given, where
-- it took 16 values, a row each (issue 40). An event inserted without
-- an id takes a block for itself; the gaps are read by nothing. On
-- SQLite, where nothing is reserved, the migration changes nothing.

-- +goose Up
ALTER TABLE events ALTER COLUMN id SET INCREMENT BY 16;

-- +goose Down
-- The ids of the last block handed out may be in use up to its end:
-- the sequence goes on from past it, and past every event.
ALTER TABLE events ALTER COLUMN id SET INCREMENT BY 1;
SELECT setval(pg_get_serial_sequence('events', 'id'), greatest(1,
	coalesce((SELECT max(id) FROM events), 0),
	coalesce(pg_sequence_last_value(pg_get_serial_sequence('events', 'id')::regclass) + 15, 0)));
