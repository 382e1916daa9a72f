-- An existing database to import: the seeds' schemas (Scorekeeper, the items/categories example
-- with a composite key, a partial index, a trigger, a view and FTS5) and a GRDB-style app's
-- tables with names and types Strata's conventions do not use.
CREATE TABLE "games" (
  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
  "title" TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE TABLE "players" (
  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
  "gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL DEFAULT '',
  "score" INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX "index_players_on_gameID" ON "players"("gameID");
CREATE TABLE "items" (
  "id" TEXT PRIMARY KEY NOT NULL DEFAULT (uuid()),
  "title" TEXT NOT NULL DEFAULT '',
  "isInStock" INTEGER NOT NULL DEFAULT 1,
  "price" REAL NOT NULL DEFAULT 0.0,
  "createdAt" TEXT NOT NULL DEFAULT (datetime('now')),
  "isArchived" INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE TABLE "categories" (
  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
  "name" TEXT NOT NULL UNIQUE,
  "position" INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE TABLE "itemCategories" (
  "itemID" TEXT NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
  "categoryID" TEXT NOT NULL REFERENCES "categories"("id") ON DELETE CASCADE,
  PRIMARY KEY ("itemID", "categoryID")
) STRICT;
CREATE INDEX "idx_items_createdAt" ON "items" ("createdAt" DESC);
CREATE INDEX "idx_items_search" ON "items" ("title", "isInStock") WHERE "isArchived" = 0;
CREATE TRIGGER "update_item_timestamp" AFTER UPDATE ON "items" BEGIN
  UPDATE "items" SET "createdAt" = datetime('now') WHERE "id" = NEW."id";
END;
CREATE VIEW "itemTitles" AS SELECT "title" FROM "items";
CREATE VIRTUAL TABLE "itemTexts" USING fts5("title", tokenize = 'trigram');
CREATE TABLE "grdb_migrations" ("identifier" TEXT NOT NULL PRIMARY KEY);
INSERT INTO "grdb_migrations" VALUES ('v1');
CREATE TABLE "team member" (
  "Member ID" INTEGER PRIMARY KEY AUTOINCREMENT,
  "default" TEXT,
  "rowid" INT,
  "2fa" BOOLEAN DEFAULT 0,
  "joined" DATETIME,
  "balance" NUMERIC,
  "avatar" BLOB,
  "anything",
  "Draft" VARCHAR(10) CHECK (length("Draft") < 10),
  "id" INTEGER,
  "doubled" INT GENERATED ALWAYS AS ("Member ID" * 2) VIRTUAL
);
CREATE TABLE player (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  teamId INTEGER REFERENCES "team member"("Member ID") ON UPDATE CASCADE
);
CREATE INDEX index_player_on_teamId ON player(teamId);
CREATE TABLE "tags" ("name" TEXT PRIMARY KEY NOT NULL COLLATE NOCASE) STRICT;
CREATE TABLE "taggings" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "tag" TEXT NOT NULL REFERENCES "tags"("name") ON DELETE RESTRICT,
  "gameID" TEXT REFERENCES "games"("id") ON DELETE SET NULL,
  "note" TEXT COLLATE NOCASE
) STRICT;
CREATE INDEX "index_taggings_on_tag" ON "taggings"("tag");
CREATE INDEX "index_taggings_on_gameID" ON "taggings"("gameID");
CREATE UNIQUE INDEX "index_taggings_on_tag_gameID" ON "taggings"("tag", "gameID");
CREATE TABLE "gameTags" (
  "gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE,
  "tag" TEXT NOT NULL,
  "addedAt" TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" TEXT DEFAULT (datetime('now', '+1 year')),
  "weight" INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY ("gameID", "tag"),
  CHECK ("weight" >= 0)
) STRICT;
CREATE INDEX "index_gameTags_on_gameID" ON "gameTags"("gameID");
CREATE INDEX "index_gameTags_on_weight" ON "gameTags"("weight") WHERE "weight" > 1;
