CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT DEFAULT 'café') STRICT;

-- expect: error 1:67 this file is not UTF-8 (byte 0xE9 here); save it as UTF-8
