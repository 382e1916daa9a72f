CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
ROLLBACK;
-- expect: error 2:1 a migration runs inside the transaction the migrator opens for it, so
