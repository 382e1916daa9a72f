CREATE TABLE items (id INTEGER PRIMARY KEY, count INTEGER NOT NULL) STRICT;
INSERT INTO items (count) VALUES ('many');
-- expect: error 2:1 this migration fails on SQLite: cannot store TEXT value in INTEGER col
