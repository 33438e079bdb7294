-- +goose Up
-- An event's words as a phrase (issue 39): the message key of its
-- sentence and its arguments, as JSON (engine.Phrase), so that each
-- reader reads it in his own language. text keeps its English. NULL for
-- an event written as text only: the service's own, and every event
-- stored before this migration, which is read in English.
ALTER TABLE events ADD COLUMN say TEXT;

-- +goose Down
ALTER TABLE events DROP COLUMN say;
