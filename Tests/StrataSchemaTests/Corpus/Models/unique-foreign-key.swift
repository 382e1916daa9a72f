// expect: accepted
struct User: Table { let id: Int }
struct Avatar: Table {
  let id: Int
  // @Unique
  let userID: User.ID
}
/* expect-schema
CREATE TABLE "users" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;

CREATE TABLE "avatars" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "userID" INTEGER NOT NULL UNIQUE REFERENCES "users"("id") ON DELETE CASCADE
) STRICT;
*/
