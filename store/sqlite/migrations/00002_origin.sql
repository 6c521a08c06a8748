-- Where a game came from: 'demo' for the one orderly serve --demo keeps, so
-- that it is reused instead of made anew at every start.

-- +goose Up
ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT '';
CREATE INDEX games_origin ON games (origin) WHERE origin != '';

-- +goose Down
DROP INDEX games_origin;
ALTER TABLE games DROP COLUMN origin;
