struct Item: Table {
  let id: Int
  // @Unique
  // @Index
  var code = ""
}
// expect: warning 4:6 @Index next to @Unique adds nothing: SQLite indexes UNIQUE columns
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "code" TEXT NOT NULL UNIQUE DEFAULT ''
) STRICT;
*/
