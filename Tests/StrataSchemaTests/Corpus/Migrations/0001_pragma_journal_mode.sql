PRAGMA main.journal_mode = WAL;
-- expect: error 1:1 PRAGMA journal_mode cannot change inside a transaction; set it when op
