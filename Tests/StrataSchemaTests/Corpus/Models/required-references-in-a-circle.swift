struct Author: Table {
  let id: Int
  let favoriteBookID: Book.ID
}
struct Book: Table {
  let id: Int
  let authorID: Author.ID
}
// expect: error 3:7 tables "authors", "books" reference each other through NOT NULL foreig
