// expect: accepted
struct Team: Table { let id: Int }
struct Member: Table {
  let id: Int
  // @References(Team.self, onDelete: .setDefault)
  var teamID: Int = 1
}
/* expect-schema
CREATE TABLE "teams" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;

CREATE TABLE "members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "teamID" INTEGER NOT NULL DEFAULT 1 REFERENCES "teams"("id") ON DELETE SET DEFAULT
) STRICT;
CREATE INDEX "index_members_on_teamID" ON "members"("teamID");
*/
