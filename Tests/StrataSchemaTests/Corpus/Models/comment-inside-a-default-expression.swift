// expect: accepted
struct Item: Table {
  let id: Int
  var total: Int = 1 + // the base
    2
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "total" INTEGER NOT NULL
) STRICT;
*/
