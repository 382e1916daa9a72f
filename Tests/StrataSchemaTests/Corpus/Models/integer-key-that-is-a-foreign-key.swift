// expect: accepted
struct Account: Table { let id: Int }
struct Profile: Table {
  // @Column(primaryKey: true)
  let accountID: Account.ID
}
/* expect-schema
CREATE TABLE "accounts" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;

CREATE TABLE "profiles" (
  "accountID" INTEGER PRIMARY KEY NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE
) STRICT;
*/
