-- The schema of orderly's games on PostgreSQL: the same tables and columns
-- as the SQLite store's migrations 1 to 5 make, in one step. Events are
-- kept as the bytes they were given (bytea, not jsonb, which would reorder
-- their keys): the hash chain binds those bytes.

-- +goose Up
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    rules       TEXT NOT NULL,
    file        TEXT NOT NULL,
    scenario    BYTEA NOT NULL,
    created     BIGINT NOT NULL, -- unix nanoseconds
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0), -- the number of events
    origin      TEXT NOT NULL DEFAULT '',
    tables      BYTEA NOT NULL DEFAULT '\x',
    tables_file TEXT NOT NULL DEFAULT '',
    fog         TEXT NOT NULL DEFAULT '',
    dice        TEXT NOT NULL DEFAULT '',
    n           BIGSERIAL -- the order games were made in, for games made at one instant
);
CREATE INDEX games_created ON games (created, n);
CREATE INDEX games_origin ON games (origin) WHERE origin <> '';

CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games (id),
    seq  INTEGER NOT NULL CHECK (seq >= 1),
    data BYTEA NOT NULL,
    PRIMARY KEY (game, seq)
);

CREATE TABLE seats (
    hash      BYTEA PRIMARY KEY, -- SHA-256 of the join token
    game      TEXT NOT NULL REFERENCES games (id),
    role      TEXT NOT NULL,
    side      TEXT NOT NULL,
    formation TEXT NOT NULL,
    label     TEXT NOT NULL,
    n         INTEGER NOT NULL -- the seat's place in the order it was made
);
CREATE INDEX seats_game ON seats (game, n);

CREATE TABLE seeds (
    game       TEXT NOT NULL REFERENCES games (id),
    from_seq   INTEGER NOT NULL,
    secret     BYTEA NOT NULL,
    commitment TEXT NOT NULL,
    revealed   INTEGER NOT NULL DEFAULT 0, -- the game's version at the reveal; 0 while secret
    PRIMARY KEY (game, from_seq)
);

-- +goose Down
DROP TABLE seeds;
DROP TABLE seats;
DROP TABLE events;
DROP TABLE games;
