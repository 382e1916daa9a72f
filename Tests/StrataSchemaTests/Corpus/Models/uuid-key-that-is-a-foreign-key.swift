// expect: accepted
struct RemindersList: Table { let id: UUID }
struct RemindersListPrivate: Table {
  // @Column(primaryKey: true)
  let listID: RemindersList.ID
  var position = 0
}
/* expect-schema
CREATE TABLE "remindersLists" (
  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid())
) STRICT;

CREATE TABLE "remindersListPrivates" (
  "listID" TEXT PRIMARY KEY NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE,
  "position" INTEGER NOT NULL DEFAULT 0
) STRICT;
*/
