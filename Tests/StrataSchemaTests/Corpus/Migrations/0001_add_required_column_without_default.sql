CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
INSERT INTO items DEFAULT VALUES;
ALTER TABLE items ADD COLUMN name TEXT NOT NULL;
-- expect: error 3:1 this migration fails on SQLite: Cannot add a NOT NULL column with defa
