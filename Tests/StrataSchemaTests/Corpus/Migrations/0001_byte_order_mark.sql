-- expect: accepted
CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT;
