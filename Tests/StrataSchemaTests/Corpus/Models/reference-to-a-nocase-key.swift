// expect: accepted
struct Tag: Table {
  // @Column(primaryKey: true, collate: .nocase)
  let name: String
}
struct Post: Table {
  let id: Int
  // @References(Tag.self)
  var tag: String
}
struct Note: Table {
  let id: Int
  var tag: Tag.ID?
}
extension Tag: Identifiable {
  var id: String { name }
}
/* expect-schema
CREATE TABLE "tags" (
  "name" TEXT PRIMARY KEY NOT NULL COLLATE NOCASE
) STRICT;

CREATE TABLE "posts" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "tag" TEXT NOT NULL COLLATE NOCASE REFERENCES "tags"("name") ON DELETE CASCADE
) STRICT;
CREATE INDEX "index_posts_on_tag" ON "posts"("tag");

CREATE TABLE "notes" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "tag" TEXT COLLATE NOCASE REFERENCES "tags"("name") ON DELETE SET NULL
) STRICT;
CREATE INDEX "index_notes_on_tag" ON "notes"("tag");
*/
