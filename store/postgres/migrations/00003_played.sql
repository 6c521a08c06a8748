-- When a game last changed (made, appended to, its seeds revealed), in
-- unix nanoseconds by the store's clock, as the SQLite store's migration
-- 7: the host's list of games is ordered by it. The games stored before
-- this column was added take the time they were made.

-- +goose Up
ALTER TABLE games ADD COLUMN played BIGINT NOT NULL DEFAULT 0;
UPDATE games SET played = created;

-- +goose Down
ALTER TABLE games DROP COLUMN played;
