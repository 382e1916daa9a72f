// expect: accepted
struct Item: Table {
  let id: Int
  var ratio: Double = 0x1p3
  var least: Int64 = -9_223_372_036_854_775_808
  var mask: UInt32 = 0xFFFF_FFFF
  var whole: Float = 2
  var tiny = 1e-5
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "ratio" REAL NOT NULL DEFAULT 8.0,
  "least" INTEGER NOT NULL DEFAULT -9223372036854775808,
  "mask" INTEGER NOT NULL DEFAULT 4294967295,
  "whole" REAL NOT NULL DEFAULT 2.0,
  "tiny" REAL NOT NULL DEFAULT 1e-05
) STRICT;
*/
