-- One thread per game in every mail client (issue 13).
--
-- games.thread_subject is the Subject of every mail of the game to its
-- players ("Felix #12 with alice, bob, carol"). It is fixed when the game
-- is created, because players may rename themselves mid-game and a
-- subject that changed would split the thread in the clients that group
-- by subject. Games created before this migration have '' and get their
-- subject on first use (daemon/thread.go), made of the names they have
-- then: the words that make a subject (the game's short name, its
-- players' names) live in Go, not in SQL.

-- +goose Up

ALTER TABLE games ADD COLUMN thread_subject TEXT NOT NULL DEFAULT '';

-- +goose Down

ALTER TABLE games DROP COLUMN thread_subject;
