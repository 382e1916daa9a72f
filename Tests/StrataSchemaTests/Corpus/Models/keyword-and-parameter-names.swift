// expect: accepted
struct Item: Table {
  let id: Int
  var `default` = false
  var `Type` = 0
  var decoder = ""
  var bindings = 0
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "default" INTEGER NOT NULL DEFAULT 0,
  "Type" INTEGER NOT NULL DEFAULT 0,
  "decoder" TEXT NOT NULL DEFAULT '',
  "bindings" INTEGER NOT NULL DEFAULT 0
) STRICT;
*/
