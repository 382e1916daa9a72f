CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
CREATE TABLE Items (id INTEGER PRIMARY KEY) STRICT;
-- expect: error 2:14 this migration fails on SQLite: table Items already exists
