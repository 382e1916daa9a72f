-- expect: accepted
CREATE TABLE "odd ""names""" ([the id] INTEGER PRIMARY KEY, `it's` TEXT COLLATE NOCASE) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX "odd index" ON "odd ""names"""(`it's`) WHERE `it's` IS NOT NULL;
CREATE TABLE IF NOT EXISTS plain (a, b);
CREATE TABLE IF NOT EXISTS plain (a, b);
CREATE VIEW names AS SELECT `it's` FROM "odd ""names""";
