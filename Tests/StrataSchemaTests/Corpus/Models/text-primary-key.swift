// expect: accepted
struct Tag: Table {
  // @Column(primaryKey: true)
  let name: String
  var color = 0
}
/* expect-schema
CREATE TABLE "tags" (
  "name" TEXT PRIMARY KEY NOT NULL,
  "color" INTEGER NOT NULL DEFAULT 0
) STRICT;
*/
