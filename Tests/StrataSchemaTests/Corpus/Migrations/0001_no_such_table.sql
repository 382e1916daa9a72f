CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;

INSERT INTO missing (id) SELECT id FROM items;
-- expect: error 3:1 this migration fails on SQLite: no such table: missing
