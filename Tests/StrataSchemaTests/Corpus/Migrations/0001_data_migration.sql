-- expect: accepted
CREATE TABLE lists (id INTEGER PRIMARY KEY, title TEXT NOT NULL) STRICT;
CREATE TABLE items (id INTEGER PRIMARY KEY, listID INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE, title TEXT NOT NULL) STRICT;
INSERT INTO lists (id, title) VALUES (1, 'Inbox');
INSERT INTO items (listID, title) VALUES (1, 'first'), (1, 'second');
UPDATE items SET title = upper(title);
CREATE TABLE items_new (id INTEGER PRIMARY KEY, listID INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0) STRICT;
INSERT INTO items_new (id, listID, title) SELECT id, listID, title FROM items;
DROP TABLE items;
ALTER TABLE items_new RENAME TO items;
CREATE INDEX index_items_on_listID ON items(listID);
