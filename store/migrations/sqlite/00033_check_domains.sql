-- PostgreSQL's migration 00033 turns the CHECK constraints of the tables
-- a command writes into domains, which it need not parse again for each
-- statement. SQLite compiles its CHECK constraints into each prepared
-- statement, and has no domains: this migration only keeps the two
-- engines' schema versions in step, which pbem store copy needs.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
