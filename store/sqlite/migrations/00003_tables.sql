-- A game's own tables: the text of a tables file (table YAML) uploaded with
-- it, read over the server's tables for that game alone (a LOB game's
-- numeric tables, or any game's house rules), and its file name for
-- messages. Empty for a game played on the server's tables.

-- +goose Up
ALTER TABLE games ADD COLUMN tables BLOB NOT NULL DEFAULT x'';
ALTER TABLE games ADD COLUMN tables_file TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN tables_file;
ALTER TABLE games DROP COLUMN tables;
