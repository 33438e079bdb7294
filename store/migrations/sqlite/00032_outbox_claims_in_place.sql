-- PostgreSQL's migration 00032 drops the index on claimed_by, so that a
-- claim there rewrites its row in place (a heap-only update). SQLite
-- updates a row where it is whatever its indexes, and an index entry
-- only for a column that changed: its index on claimed_by stays, and
-- finds a node's claims as it starts again (ReleaseNodeClaims). This
-- migration only keeps the two engines' schema versions in step, which
-- pbem store copy needs.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
