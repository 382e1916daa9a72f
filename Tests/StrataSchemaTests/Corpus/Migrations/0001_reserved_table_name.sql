CREATE TABLE sqlite_things (id INTEGER PRIMARY KEY);
-- expect: error 1:1 this migration fails on SQLite: object name reserved for internal use:
