-- expect: accepted
PRAGMA user_version = 3;
CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
