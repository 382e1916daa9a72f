// expect: accepted
struct Item: Table {
  let id: Int
  // @Column(as: JSONRepresentation<[String]>.self, collate: .nocase)
  var tags: [String] = []
}
/* expect-schema
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "tags" TEXT NOT NULL COLLATE NOCASE DEFAULT '[]'
) STRICT;
*/
