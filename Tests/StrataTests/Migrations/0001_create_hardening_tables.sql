-- The hardening models' tables (Models/Hardening.swift). The comment lines hold a tab (	),
-- a carriage return at the end of the line above, and a right-to-left override (‮), which the
-- registry must embed exactly.

CREATE TABLE "gadgets" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "decoder" TEXT NOT NULL DEFAULT '',
  "bindings" INTEGER NOT NULL DEFAULT 0,
  "Type" INTEGER NOT NULL DEFAULT 0,
  "default" INTEGER NOT NULL DEFAULT 0,
  "columns" INTEGER NOT NULL DEFAULT 0,
  "tableName" TEXT NOT NULL DEFAULT '',
  "resultColumns" INTEGER NOT NULL DEFAULT 0,
  "queryColumnCount" INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE "gadgetDetails" (
  "gadgetID" INTEGER PRIMARY KEY NOT NULL REFERENCES "gadgets"("id") ON DELETE CASCADE,
  "notes" TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE "labels" (
  "name" TEXT PRIMARY KEY NOT NULL,
  "color" INTEGER NOT NULL DEFAULT 0
) STRICT;
