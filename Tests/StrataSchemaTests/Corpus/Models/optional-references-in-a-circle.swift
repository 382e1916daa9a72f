// expect: accepted
struct Author: Table {
  let id: Int
  var favoriteBookID: Book.ID?
}
struct Book: Table {
  let id: Int
  let authorID: Author.ID
}
/* expect-schema
CREATE TABLE "books" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "authorID" INTEGER NOT NULL REFERENCES "authors"("id") ON DELETE CASCADE
) STRICT;
CREATE INDEX "index_books_on_authorID" ON "books"("authorID");

CREATE TABLE "authors" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "favoriteBookID" INTEGER REFERENCES "books"("id") ON DELETE SET NULL
) STRICT;
CREATE INDEX "index_authors_on_favoriteBookID" ON "authors"("favoriteBookID");
*/
