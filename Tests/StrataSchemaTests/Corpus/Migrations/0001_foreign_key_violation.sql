CREATE TABLE lists (id INTEGER PRIMARY KEY) STRICT;
CREATE TABLE items (id INTEGER PRIMARY KEY, listID INTEGER NOT NULL REFERENCES lists(id)) STRICT;
INSERT INTO items (listID) VALUES (42);
-- expect: error 1:1 after this migration, rows of "items" reference rows of "lists" that d
