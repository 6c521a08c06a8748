-- The first schema: games, their event logs, seats and dice seeds.

-- +goose Up
CREATE TABLE games (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    rules    TEXT NOT NULL,
    file     TEXT NOT NULL,
    scenario BLOB NOT NULL,
    created  INTEGER NOT NULL, -- unix nanoseconds
    version  INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0) -- the number of events
);
CREATE INDEX games_created ON games (created);

CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games (id),
    seq  INTEGER NOT NULL CHECK (seq >= 1),
    data BLOB NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;

CREATE TABLE seats (
    hash      BLOB PRIMARY KEY, -- SHA-256 of the join token
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
    secret     BLOB NOT NULL,
    commitment TEXT NOT NULL,
    revealed   INTEGER NOT NULL DEFAULT 0, -- the game's version at the reveal; 0 while secret
    PRIMARY KEY (game, from_seq)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE seeds;
DROP TABLE seats;
DROP TABLE events;
DROP TABLE games;
