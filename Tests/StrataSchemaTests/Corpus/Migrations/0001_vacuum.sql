CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
VACUUM;
-- expect: error 2:1 VACUUM cannot run inside a transaction, and every migration runs in on
