-- How a game's hash chain starts (its genesis): 1 binds the scenario, the
-- game's own tables file and its first dice seed; 2 binds its dice and fog
-- modes too. Fixed when the game is made, or imported with its chain: the
-- games stored before this column was added keep the genesis they were
-- hashed from, 1.

-- +goose Up
ALTER TABLE games ADD COLUMN genesis INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE games DROP COLUMN genesis;
