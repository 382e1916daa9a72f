CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT) STRICT;
DELETE FROM items; COMMIT; BEGIN;
-- expect: error 2:20 a migration runs inside the transaction the migrator opens for it, so
