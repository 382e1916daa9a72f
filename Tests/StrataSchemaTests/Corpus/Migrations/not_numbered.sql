CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
-- expect: error 1:1 a migration's file name starts with the number that orders it, then '_
