// An app that adopted Strata on an existing database with `strata import`: the imported models
// read and write the existing rows, and a new database gets the same schema from the baseline.
import Foundation
import Strata

func check(_ condition: Bool, _ message: String) {
  if !condition {
    print("FAILED: \(message)")
    exit(1)
  }
}

// The existing database: the baseline is recorded, not run, and its rows are all there.
let existing = try openDatabase(.file(CommandLine.arguments[1]))
try existing.migrate(StrataMigrations.all)
let titles = try existing.read { db in
  try Book.join(Author.all) { $0.authorId.eq($1.id) }.order { $1.name }.select { ($1.name, $0.title) }.fetchAll(db)
}
check(titles.map(\.1) == ["Invisible Cities", "The Dispossessed"], "titles: \(titles)")
let published = try existing.read { db in try Book.find(1).select(\.publishedAt).fetchOne(db) }
check(published??.timeIntervalSince1970 == 136_598_400, "published: \(String(describing: published))")
// The UUID GRDB stored as 16 bytes, read through the representation the test declared.
let token = try existing.read { db in try Author.find(1).select(\.token).fetchOne(db) }
check(token == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "token: \(String(describing: token))")
try existing.write { db in
  try Author.insert { Author.Draft(name: "  Octavia E. Butler ", birthYear: 1947, token: UUID()) }.execute(db)
  try BookShelf.insert { BookShelf.Draft(bookId: 2, shelf: "C") }.execute(db)
}
let authors = try existing.read { db in try Author.order(by: \.id).select(\.name).fetchAll(db) }
// The trigger the baseline kept still trims names.
check(authors == ["Ursula K. Le Guin", "Italo Calvino", "Octavia E. Butler"], "authors: \(authors)")
let shelves = try existing.read { db in try BookShelf.where { $0.bookId.eq(2) }.select(\.shelf).fetchAll(db) }
check(shelves.sorted() == ["B", "C"], "shelves: \(shelves)")

// The view has a read-only model too.
let viewTitles = try existing.read { db in try BookTitle.all.fetchAll(db).compactMap(\.title) }
check(viewTitles.sorted() == ["Invisible Cities", "The Dispossessed"], "view: \(viewTitles)")

// A new database runs the baseline and gets the same schema.
let fresh = try openDatabase(.inMemory)
try fresh.migrate(StrataMigrations.all)
let objects = try fresh.read { db in
  try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE name IN ('bookTitle', 'author_name_trimmed', 'bookText') ORDER BY name")
}
check(objects == ["author_name_trimmed", "bookText", "bookTitle"], "objects: \(objects)")
print("OK: \(authors.count) authors, \(titles.count) books")
