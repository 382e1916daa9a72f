struct Category: Table {
  let id: Int
  let parentID: Category.ID
}
// expect: warning 3:7 "parentID" references its own table and cannot be NULL, so every row m
/* expect-schema
CREATE TABLE "categories" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "parentID" INTEGER NOT NULL REFERENCES "categories"("id") ON DELETE CASCADE
) STRICT;
CREATE INDEX "index_categories_on_parentID" ON "categories"("parentID");
*/
