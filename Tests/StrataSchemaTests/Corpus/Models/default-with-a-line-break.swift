// expect: accepted
struct Item: Table {
  let id: Int
  var text = "line one\nline two"
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "text" TEXT NOT NULL DEFAULT 'line one
line two'
) STRICT;
*/
