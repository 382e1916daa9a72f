struct Item: Table {
  // @Index
  let id: UUID
}
// expect: warning 2:6 @Index on the primary key 'id' adds nothing: SQLite indexes the primar
/* expect-schema
CREATE TABLE "items" (
  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid())
) STRICT;
*/
