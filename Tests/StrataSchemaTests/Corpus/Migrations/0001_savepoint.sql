SAVEPOINT before_items;
CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
RELEASE before_items;
-- expect: error 1:1 a migration runs inside the transaction the migrator opens for it, so
