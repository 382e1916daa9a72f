CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
CREATE INDEX items_by_name
  ON items(name);
-- expect: error 3:12 this migration fails on SQLite: no such column: name
