-- PostgreSQL's migration 00030 has PostgreSQL compress outbox messages
-- with LZ4. SQLite compresses nothing: this migration only keeps the two
-- engines' schema versions in step, which pbem store copy needs.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
