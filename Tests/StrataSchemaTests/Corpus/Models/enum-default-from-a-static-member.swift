// expect: accepted
enum Status: String {
  case active, archived
  static let initial = Status.active
}
struct Item: Table {
  let id: Int
  var status: Status = .initial
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "status" TEXT NOT NULL
) STRICT;
*/
