BEGIN TRANSACTION;
CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
COMMIT;
-- expect: error 1:1 a migration runs inside the transaction the migrator opens for it, so
