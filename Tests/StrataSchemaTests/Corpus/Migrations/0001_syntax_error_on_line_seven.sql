CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
) STRICT;

CREATE INDEX items_by_name ON items(name);
  ALTR TABLE items ADD COLUMN price REAL;
-- expect: error 7:3 this migration fails on SQLite: near "ALTR": syntax error
