-- How a game's hash chain starts (its genesis), as the SQLite store's
-- migration 6: 1 binds the scenario, the game's own tables file and its
-- first dice seed; 2 binds its dice and fog modes too. The games stored
-- before this column was added keep the genesis they were hashed from, 1.

-- +goose Up
ALTER TABLE games ADD COLUMN genesis INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE games DROP COLUMN genesis;
