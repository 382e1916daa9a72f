import Foundation
import Strata
import StrataSchema
import Testing

/// Taking over a table that an app made before Strata: removing `// @Unmanaged` changes only
/// what Strata's conventions require (STRICT, storage types), keeps every key, reference, unique
/// column, collation and default the model says, refuses to drop one it does not say without
/// consent, and keeps every value. Through the generator's migrations and `database.migrate`.
@Suite struct TakeoverTests {
  let history: ModelHistory
  let database: any DatabaseWriter

  init() throws {
    history = try ModelHistory()
    database = try openDatabase(.inMemory)
    try history.write(
      "0001_legacy.sql",
      """
      CREATE TABLE authors (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL COLLATE NOCASE UNIQUE);
      CREATE TABLE books (
        id INTEGER PRIMARY KEY, authorID INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
        title TEXT NOT NULL, price REAL, isDraft BOOLEAN NOT NULL DEFAULT 0, publishedAt DATETIME
      );
      CREATE INDEX index_books_on_authorID ON books(authorID);
      CREATE TABLE shelving (bookID INTEGER NOT NULL, shelf TEXT NOT NULL, PRIMARY KEY (bookID, shelf)) WITHOUT ROWID;
      """)
    try database.migrate(try history.migrations)
    try database.write { db in
      try db.execute(
        sql: """
          INSERT INTO authors (id, name) VALUES (1, 'Ann');
          INSERT INTO books VALUES (1, 1, 'First', 9.5, 1, '2024-01-02 03:04:05.678'), (2, 1, 'Second', NULL, 0, NULL);
          INSERT INTO shelving VALUES (1, 'A'), (2, 'A');
          """)
    }
  }

  /// The models `strata import` writes for these tables: everything a model can say.
  static func models(unmanaged: Bool) -> String {
    let mark = unmanaged ? "// @Unmanaged\n" : ""
    return """
      \(mark)struct Author: Table, Identifiable {
        let id: Int
        // @Unique
        // @Column(collate: .nocase)
        var name: String
      }
      \(mark)struct Book: Table, Identifiable {
        let id: Int
        var authorID: Author.ID
        var title: String
        var price: Double?
        var isDraft: Bool = false
        var publishedAt: Date?
      }
      // @Table("shelving")
      \(mark)// @PrimaryKey(on: "bookID, shelf")
      struct Shelving: Table {
        var bookID: Int
        var shelf: String
      }
      """
  }

  @Test func removingTheMarkKeepsEveryConstraintAndValue() throws {
    #expect(try history.generate(Self.models(unmanaged: true)) == nil)
    let migration = try #require(try history.generate(Self.models(unmanaged: false)))
    #expect(migration.summary.count == 3)
    #expect(migration.summary[0].hasPrefix(#"rebuild table "authors", copying every row, because it becomes STRICT, column "id" changes primary key from PRIMARY KEY to PRIMARY KEY AUTOINCREMENT, column "name" changes type from VARCHAR(40) to TEXT"#), "\(migration.summary)")
    try database.migrate(try history.migrations)

    // Every row reads as the models' types read it, with the values it had.
    let books = try database.read { db in
      try sql("SELECT title, price, isDraft, publishedAt FROM books ORDER BY id", as: (String, Double?, Bool, Date?).self).fetchAll(db)
    }
    #expect(books.map(\.0) == ["First", "Second"])
    #expect(books.map(\.1) == [9.5, nil])
    #expect(books.map(\.2) == [true, false])
    #expect(books.map(\.3) == [Date(timeIntervalSince1970: 1_704_164_645.678), nil])
    #expect(try database.read { try sql("SELECT name FROM authors", as: String.self).fetchAll($0) } == ["Ann"])
    #expect(try database.read { try sql("SELECT count(*) FROM shelving", as: Int.self).fetchOne($0) } == 2)
    try database.write { db in
      // The collation and UNIQUE stay: "ANN" is "Ann".
      #expect(throws: (any Error).self) { try db.execute(sql: "INSERT INTO authors (name) VALUES ('ANN')") }
      // The composite key stays: no second (1, 'A').
      #expect(throws: (any Error).self) { try db.execute(sql: "INSERT INTO shelving VALUES (1, 'A')") }
      // The cascade stays.
      try db.execute(sql: "DELETE FROM authors WHERE id = 1")
      #expect(try sql("SELECT count(*) FROM books", as: Int.self).fetchOne(db) == 0)
    }
  }

  @Test func aTakeoverThatWouldDropWhatTheModelDoesNotSayNeedsConsent() throws {
    let bare = """
      // @Unmanaged
      struct Author: Table, Identifiable { let id: Int; var name: String }
      struct Book: Table, Identifiable { let id: Int; var authorID: Int; var title: String; var price: Double?; var isDraft: Bool; var publishedAt: Date? }
      // @Unmanaged
      // @Table("shelving")
      struct Shelving: Table { var bookID: Int; var shelf: String }
      """
    try history.generate(bare.replacingOccurrences(of: "struct Book", with: "// @Unmanaged\nstruct Book"))
    do {
      try history.generate(bare)
      Issue.record("a takeover dropped constraints without consent")
    } catch let error as DiagnosticsError {
      #expect(
        error.diagnostics.map(\.message) == [
          #"taking table "books" over would drop what its model does not say: the foreign key "authorID" REFERENCES "authors"("id") ON DELETE CASCADE, the default 0 of "isDraft", the index "index_books_on_authorID"; say it in the model (@References, @Unique, @PrimaryKey(on:), collate:, a default, @Index) or, to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"#
        ])
    }
  }

  @Test func aValueOfTheWrongTypeStopsTheTakeoverNamingItsRow() throws {
    try database.write { db in try db.execute(sql: "UPDATE books SET price = 'free' WHERE id = 2") }
    try history.generate(Self.models(unmanaged: true))
    try history.generate(Self.models(unmanaged: false))
    let error = try #require(throws: StrataError.self) { try database.migrate(try history.migrations) }
    #expect(error.message.contains(#"row 2 holds 'free' in "books"."price", which becomes 0.0 as REAL"#), "\(error.message)")
    #expect(try database.read { try String.fetchOne($0, sql: "SELECT price FROM books WHERE id = 2") } == "free")
  }
}
