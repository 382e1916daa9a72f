PRAGMA foreign_keys = OFF;
CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
-- expect: error 1:1 PRAGMA foreign_keys does nothing inside a transaction, and every migra
