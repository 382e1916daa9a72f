EXPLAIN COMMIT;
-- expect: error 1:1 a migration runs inside the transaction the migrator opens for it, so
