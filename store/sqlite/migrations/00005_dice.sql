-- Where a game's dice are thrown: empty for the server (every roll drawn
-- from the game's committed seeds), table (every roll of a command thrown
-- at the table and typed in) or mixed (the rolls everyone sees thrown at
-- the table, the umpire's secret ones drawn by the server). Fixed when the
-- game is made.

-- +goose Up
ALTER TABLE games ADD COLUMN dice TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN dice;
