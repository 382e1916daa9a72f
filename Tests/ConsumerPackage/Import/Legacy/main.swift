// An app that adopted Strata on an existing database with `strata import`, added a model and
// took every table over (removing `// @Unmanaged`): migrating its own file keeps every row with
// its values, and the unique index, the cascade, the trigger and the views keep working.
import Foundation
import Strata

func check(_ condition: Bool, _ message: String) {
  if !condition {
    print("FAILED: \(message)")
    exit(1)
  }
}

// The existing database: the baseline is recorded, not run; the new table is created and the
// taken-over tables rebuilt in Strata's conventions.
let existing = try openDatabase(.file(CommandLine.arguments[1]))
let result = try existing.migrate(StrataMigrations.all)
check(result.recorded == [StrataMigrations.all[0].name], "recorded: \(result.recorded)")
check(result.applied == StrataMigrations.all.dropFirst().map(\.name), "applied: \(result.applied)")
let tables = try existing.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%STRICT' ORDER BY name") }
check(tables == ["author", "book", "bookShelf", "reviews", "strata_migrations"], "STRICT tables: \(tables)")

// Every row, with its values, read by the models' types.
let books = try existing.read { db in try Book.order(by: \.id).fetchAll(db) }
check(books.map(\.title) == ["The Dispossessed", "Invisible Cities"], "titles: \(books.map(\.title))")
check(books.map(\.publishedAt?.timeIntervalSince1970) == [136_598_400, nil], "published: \(books.map(\.publishedAt))")
check(books.map(\.isDraft) == [false, true], "drafts: \(books.map(\.isDraft))")
check(books.map(\.price) == [9.5, 12.25], "prices: \(books.map(\.price))")
let token = try existing.read { db in try Author.find(1).select(\.token).fetchOne(db) }
check(token == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "token: \(String(describing: token))")
let years = try existing.read { db in try Author.order(by: \.id).select(\.birthYear).fetchAll(db) }
check(years == [1929, 1923], "years: \(years)")
let shelves = try existing.read { db in try BookShelf.order(by: \.bookId).select(\.shelf).fetchAll(db) }
check(shelves == ["A", "B"], "shelves: \(shelves)")

// The views read, the aggregate one too.
let stats = try existing.read { db in try AuthorStat.order(by: \.name).fetchAll(db) }
check(stats.map(\.books) == [1, 1] && stats.map(\.spent) == [12.25, 9.5], "stats: \(stats)")
let viewTitles = try existing.read { db in try BookTitle.all.fetchAll(db).compactMap(\.title) }
check(viewTitles.sorted() == ["Invisible Cities", "The Dispossessed"], "view: \(viewTitles)")

try existing.write { db in
  // The trigger still trims names, and the new model takes rows.
  try Author.insert { Author.Draft(name: "  Octavia E. Butler ", birthYear: 1947, token: UUID()) }.execute(db)
  try Review.insert { Review.Draft(bookID: 1, stars: 5) }.execute(db)
  // The unique index still refuses a second book of the same title by the same author.
  do {
    try Book.insert { Book.Draft(authorId: 1, title: "The Dispossessed") }.execute(db)
    check(false, "a duplicate book was accepted")
  } catch {
    check(ConstraintViolation(error)?.kind == .unique, "duplicate: \(error)")
  }
  // The key on two columns still refuses a second (1, 'A').
  check((try? BookShelf.insert { BookShelf.Draft(bookId: 1, shelf: "A") }.execute(db)) == nil, "a duplicate shelf was accepted")
  // Deleting an author still deletes their books, and those books' shelves.
  try Author.find(2).delete().execute(db)
}
let authors = try existing.read { db in try Author.order(by: \.id).select(\.name).fetchAll(db) }
check(authors == ["Ursula K. Le Guin", "Octavia E. Butler"], "authors: \(authors)")
let left = try existing.read { db in (try Book.fetchCount(db), try BookShelf.fetchCount(db), try Review.fetchCount(db)) }
check(left == (1, 1, 1), "left: \(left)")

// A new database runs the baseline and the migrations after it, and gets the same objects.
let fresh = try openDatabase(.inMemory)
try fresh.migrate(StrataMigrations.all)
let objects = try fresh.read { db in
  try String.fetchAll(
    db, sql: "SELECT name FROM sqlite_schema WHERE name IN ('bookTitle', 'authorStats', 'author_name_trimmed', 'bookText', 'book_title_by_author') ORDER BY name")
}
check(objects == ["authorStats", "author_name_trimmed", "bookText", "bookTitle", "book_title_by_author"], "objects: \(objects)")
print("OK: \(authors.count) authors, \(books.count) books")
