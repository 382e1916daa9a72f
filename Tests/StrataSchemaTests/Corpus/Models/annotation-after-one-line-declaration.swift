// expect: accepted
struct A: Table { let id: Int; var n = 0 }
// @Table("bees")
struct B: Table { let id: Int }
/* expect-schema
CREATE TABLE "as" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "n" INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE "bees" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;
*/
