-- A game's fog of war: off (empty, every piece open, as at a shared
-- table), on (a side sees an enemy piece only while one of its own spots
-- it) or strict (a commander's seat sees only what his formation spots).
-- The engine works out from it who may see each event as the event is
-- made, so it is fixed when the game is.

-- +goose Up
ALTER TABLE games ADD COLUMN fog TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN fog;
