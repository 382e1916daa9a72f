-- expect: accepted
CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, updatedAt TEXT) STRICT;
CREATE TRIGGER touch_items AFTER UPDATE OF name ON items BEGIN
  UPDATE items SET updatedAt = CURRENT_TIMESTAMP WHERE id = new.id;
END;
