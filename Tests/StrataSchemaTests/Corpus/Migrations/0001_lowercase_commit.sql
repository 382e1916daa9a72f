create table items (id integer primary key) strict;
  commit;
-- expect: error 2:3 a migration runs inside the transaction the migrator opens for it, so
