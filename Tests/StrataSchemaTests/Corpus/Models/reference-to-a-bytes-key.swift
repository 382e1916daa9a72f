// expect: accepted
struct Team: Table {
  // @Column(as: UUID.BytesRepresentation.self)
  let id: UUID
}
struct Member: Table {
  let id: Int
  var teamID: Team.ID
}
/* expect-schema
CREATE TABLE "teams" (
  "id" BLOB PRIMARY KEY NOT NULL
) STRICT;

CREATE TABLE "members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "teamID" BLOB NOT NULL REFERENCES "teams"("id") ON DELETE CASCADE
) STRICT;
CREATE INDEX "index_members_on_teamID" ON "members"("teamID");
*/
