struct Item: Table {
  // @Unique
  let id: Int
}
// expect: warning 2:6 @Unique on the primary key 'id' adds nothing: a primary key is unique
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;
*/
