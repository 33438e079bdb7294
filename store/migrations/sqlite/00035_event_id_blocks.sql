-- PostgreSQL's migration 00035 makes its events' id sequence step by 16,
-- for the ids a transaction reserves (store/txevents.go). SQLite
-- reserves none: its schema stays as it was.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
