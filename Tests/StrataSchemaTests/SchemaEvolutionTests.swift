import Foundation
import Testing

@testable import StrataSchema

/// Every kind of model change becomes a migration that keeps every row: each test writes the
/// first migration, fills a database with rows, changes the models, writes the next migration,
/// applies it as the migrator does (foreign keys off, checked before commit), and checks every
/// row afterwards.
@Suite struct SchemaEvolutionTests {
  let directory: URL
  let database: SQLiteConnection
  /// The migrations applied to the database so far.
  final class Applied: @unchecked Sendable {
    var names: Set<String> = []
  }
  let applied = Applied()

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-evolution-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    database = try SQLiteConnection()
  }

  func files() throws -> MigrationFiles {
    try MigrationFiles(directory: directory.path, root: nil)
  }

  /// Plans the next migration for `source`, writes it, and applies it to the database, as an
  /// app's next launch would.
  @discardableResult
  func migrate(_ source: String, allowDataLoss: Bool = false) throws -> MigrationPlan.NewMigration? {
    let models = try Generator(sources: [("Models.swift", source)]).models()
    let plan = try MigrationPlanner.plan(models: models, migrations: try files(), moduleName: "App", allowDataLoss: allowDataLoss)
    guard let migration = plan.newMigration else { return nil }
    try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
    try applyPending()
    return migration
  }

  /// Applies the migrations the database has not had yet, like the migrator at launch.
  func applyPending() throws {
    for file in try files().files where !applied.names.contains(file.name) {
      try MigrationReplay.apply([file], to: database)
      applied.names.insert(file.name)
    }
  }

  /// Writes a hand-written migration and applies it.
  func handWritten(_ name: String, _ sql: String) throws {
    try sql.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    try applyPending()
  }

  /// Every row of a query, as `column=value` joined with spaces.
  func rows(_ sql: String) throws -> [String] {
    try database.rows(sql).map(\.text)
  }

  func errors(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map(\.message)
    } catch {
      return ["\(error)"]
    }
  }

  static let library = """
    struct Author: Table, Identifiable {
      let id: Int
      var name = ""
      var born: Int?
    }
    struct Book: Table, Identifiable {
      let id: Int
      let authorID: Author.ID
      var title = ""
      var pages = 0
      var note: String?
    }
    """

  func seedLibrary() throws {
    try migrate(Self.library)
    try database.execute(
      """
      INSERT INTO authors (id, name, born) VALUES (1, 'Ursula', 1929), (2, 'Italo', NULL);
      INSERT INTO books (id, authorID, title, pages, note) VALUES
        (1, 1, 'Earthsea', 183, NULL), (2, 1, 'Lathe', 184, 'dream'), (3, 2, 'Cities', 165, NULL);
      """)
  }

  // MARK: Renames

  @Test func renamingAColumnKeepsItsValuesAndItsIndexFollows() throws {
    try seedLibrary()
    let renamed = Self.library.replacingOccurrences(
      of: "  let authorID: Author.ID\n", with: "  // @Renamed(from: \"authorID\")\n  let writerID: Author.ID\n")
    let migration = try #require(try migrate(renamed))
    #expect(migration.summary == [
      #"rename column "authorID" of "books" to "writerID""#, #"drop index "index_books_on_authorID""#,
      #"create index "index_books_on_writerID""#,
    ])
    #expect(migration.sql.contains(#"ALTER TABLE "books" RENAME COLUMN "authorID" TO "writerID";"#))
    #expect(try rows("SELECT id, writerID, title FROM books ORDER BY id") == [
      "id=1 writerID=1 title=Earthsea", "id=2 writerID=1 title=Lathe", "id=3 writerID=2 title=Cities",
    ])
    #expect(try rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'books'") == ["name=index_books_on_writerID"])
    // The annotation can stay: it asks for nothing once the column has its new name.
    #expect(try migrate(renamed) == nil)
  }

  @Test func renamingATableKeepsRowsForeignKeysViewsAndTriggers() throws {
    try seedLibrary()
    try handWritten(
      "0002_reading_list.sql",
      """
      CREATE TABLE log (message TEXT NOT NULL) STRICT;
      CREATE VIEW long_books AS SELECT title FROM books WHERE pages > 180;
      CREATE TRIGGER book_added AFTER INSERT ON books BEGIN INSERT INTO log VALUES ('added ' || new.title); END;
      """)
    let renamed = Self.library.replacingOccurrences(of: "struct Author: Table", with: "// @Table(\"log\")\nstruct Log: Table { var message: String }\nstruct Author: Table")
      .replacingOccurrences(of: "struct Book: Table", with: "// @Renamed(from: \"books\")\nstruct Volume: Table")
      .replacingOccurrences(of: "let authorID: Author.ID", with: "let authorID: Author.ID")
    let migration = try #require(try migrate(renamed))
    #expect(migration.summary.first == #"rename table "books" to "volumes""#)
    #expect(migration.sql.contains(#"ALTER TABLE "books" RENAME TO "volumes";"#))
    #expect(try rows("SELECT id, authorID, title, pages, note FROM volumes ORDER BY id") == [
      "id=1 authorID=1 title=Earthsea pages=183 note=nil", "id=2 authorID=1 title=Lathe pages=184 note=dream",
      "id=3 authorID=2 title=Cities pages=165 note=nil",
    ])
    // The view and the trigger follow the rename; the conventional index gets its new name.
    #expect(try rows("SELECT title FROM long_books ORDER BY title") == ["title=Earthsea", "title=Lathe"])
    try database.execute("INSERT INTO volumes (authorID, title) VALUES (2, 'Winter')")
    #expect(try rows("SELECT message FROM log") == ["message=added Winter"])
    #expect(try rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'volumes'") == ["name=index_volumes_on_authorID"])
    #expect(try migrate(renamed) == nil)
  }

  // MARK: Drops

  @Test func droppingAColumnNeedsConsentAndKeepsTheRest() throws {
    try seedLibrary()
    let smaller = Self.library.replacingOccurrences(of: "  var note: String?\n", with: "")
    #expect(errors { try migrate(smaller) } == [
      #"table "books": column "note" is in the migrations but not in the model, and dropping it would delete its values; if the property was renamed, mark it // @Renamed(from: "note"); to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"#
    ])
    let migration = try #require(try migrate(smaller, allowDataLoss: true))
    #expect(migration.summary == [#"drop column "note" of "books", deleting its values"#])
    #expect(try rows("SELECT * FROM books ORDER BY id") == [
      "id=1 authorID=1 title=Earthsea pages=183", "id=2 authorID=1 title=Lathe pages=184", "id=3 authorID=2 title=Cities pages=165",
    ])
  }

  @Test func droppingATableNeedsConsentAndSaysWhatGoes() throws {
    try seedLibrary()
    let authorsOnly = "struct Author: Table, Identifiable {\n  let id: Int\n  var name = \"\"\n  var born: Int?\n}\n"
    #expect(errors { try migrate(authorsOnly) }.first?.hasPrefix(#"table "books" is in the migrations but no model declares it, and dropping it would delete its rows"#) == true)
    let migration = try #require(try migrate(authorsOnly, allowDataLoss: true))
    #expect(migration.summary == [#"drop table "books", deleting its rows"#])
    #expect(migration.sql.contains("-- This migration deletes data"))
    #expect(try rows("SELECT id, name FROM authors ORDER BY id") == ["id=1 name=Ursula", "id=2 name=Italo"])
    #expect(try rows("SELECT name FROM sqlite_schema WHERE name = 'books'").isEmpty)
  }

  // MARK: Rebuilds

  @Test func makingAColumnNotNullFillsNullsWithTheDefault() throws {
    try seedLibrary()
    let required = Self.library.replacingOccurrences(of: "  var note: String?\n", with: "  var note = \"none\"\n")
    let migration = try #require(try migrate(required))
    #expect(migration.summary == [
      #"rebuild table "books", copying every row, because column "note" becomes NOT NULL, column "note" changes default from none to 'none'; rows whose "note" is NULL get the default"#
    ])
    #expect(migration.sql.contains(#"INSERT INTO "strata_new_books" ("id", "authorID", "title", "pages", "note") SELECT "id", "authorID", "title", "pages", coalesce("note", 'none') FROM "books";"#))
    #expect(try rows("SELECT id, authorID, title, pages, note FROM books ORDER BY id") == [
      "id=1 authorID=1 title=Earthsea pages=183 note=none", "id=2 authorID=1 title=Lathe pages=184 note=dream",
      "id=3 authorID=2 title=Cities pages=165 note=none",
    ])
    #expect(try rows("SELECT \"notnull\", dflt_value FROM pragma_table_info('books') WHERE name = 'note'") == ["notnull=1 dflt_value='none'"])
  }

  @Test func makingAColumnNotNullWithoutADefaultStopsWhileRowsHoldNull() throws {
    try seedLibrary()
    let required = Self.library.replacingOccurrences(of: "  var born: Int?\n", with: "  var born: Int\n")
    let failure = errors { try migrate(required) }
    #expect(failure == [#"this migration fails on SQLite: JSON path error near 'strata: row 2 has no "born" (NULL), so "authors"."born" cannot become NOT NULL: give the property a default, which those rows get, or update them in an earlier migration'"#])
    #expect(try rows("SELECT id, born FROM authors ORDER BY id") == ["id=1 born=1929", "id=2 born=nil"])
    try database.execute("UPDATE authors SET born = 1923 WHERE id = 2")
    try applyPending()
    #expect(try rows("SELECT id, born FROM authors ORDER BY id") == ["id=1 born=1929", "id=2 born=1923"])
  }

  /// The plan cannot see the rows users' databases hold: a new required column without a
  /// default is an error when the migration is generated, at the property, not at launch.
  @Test func aNewRequiredColumnNeedsADefaultOrABackfill() throws {
    try seedLibrary()
    let extended = Self.library.replacingOccurrences(of: "  var born: Int?\n", with: "  var born: Int?\n  var country: String\n")
    let failure = errors { try migrate(extended) }
    #expect(failure == [
      #"table "authors": column "country" is new, NOT NULL and without a default, and the table may have rows that need a value for it: give the property a default (which new rows get too), make it optional, or give the rows the table already has a value of their own with // @Backfill(raw: "…") (SQL over each row, such as "'untitled'" or "lower(name)")"#
    ])
    #expect(try rows("SELECT count(*) AS n FROM authors") == ["n=2"])
    // A value for the rows the table has, computed from each: the migration gives it, and new
    // rows give their own (the column has no default).
    let backfilled = Self.library.replacingOccurrences(
      of: "  var born: Int?\n", with: "  var born: Int?\n  // @Backfill(raw: \"'from ' || name\")\n  var country: String\n")
    let migration = try #require(try migrate(backfilled))
    #expect(migration.sql.contains(#"SELECT "id", "name", "born", ('from ' || name) FROM "authors";"#), "\(migration.sql)")
    #expect(try rows("SELECT id, country FROM authors ORDER BY id") == ["id=1 country=from Ursula", "id=2 country=from Italo"])
    #expect(try rows("SELECT \"notnull\", dflt_value FROM pragma_table_info('authors') WHERE name = 'country'") == ["notnull=1 dflt_value=nil"])
  }

  @Test func changingATypeConvertsWhatConvertsAndStopsOtherwise() throws {
    try seedLibrary()
    let real = Self.library.replacingOccurrences(of: "  var pages = 0\n", with: "  var pages = 0.0\n")
    try migrate(real)
    #expect(try rows("SELECT id, pages, typeof(pages) AS kind FROM books ORDER BY id") == [
      "id=1 pages=183.0 kind=real", "id=2 pages=184.0 kind=real", "id=3 pages=165.0 kind=real",
    ])

    // Text that is not a number cannot become an INTEGER: the migration stops and changes nothing.
    let numbered = real.replacingOccurrences(of: "  var title = \"\"\n", with: "  var title = 0\n")
    #expect(throws: DiagnosticsError.self) { try migrate(numbered) }
    #expect(try rows("SELECT title FROM books ORDER BY id") == ["title=Earthsea", "title=Lathe", "title=Cities"])
  }

  @Test func aNewUniqueConstraintStopsOnDuplicatesWithAClearMessage() throws {
    try seedLibrary()
    try database.execute("UPDATE books SET title = 'Same' WHERE id IN (2, 3)")
    let unique = Self.library.replacingOccurrences(of: "  var title = \"\"\n", with: "  // @Unique\n  var title = \"\"\n")
    let failure = errors { try migrate(unique) }
    #expect(failure == [#"this migration fails on SQLite: JSON path error near 'strata: "books"."title" cannot become UNIQUE: ''Same'' is in 2 rows; remove the duplicates in an earlier migration'"#])
    #expect(try rows("SELECT count(*) AS n FROM books") == ["n=3"])

    // Once the data is fixed, the same migration applies at the next launch.
    try database.execute("UPDATE books SET title = 'Other' WHERE id = 3")
    try applyPending()
    #expect(try rows("SELECT title FROM books ORDER BY id") == ["title=Earthsea", "title=Same", "title=Other"])
    #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO books (authorID, title) VALUES (1, 'Same')") }
  }

  @Test func addingAForeignKeyChecksTheRowsAgainstIt() throws {
    let before = "struct Team: Table { let id: Int }\nstruct Member: Table {\n  let id: Int\n  var teamID: Int?\n}\n"
    try migrate(before)
    try database.execute("INSERT INTO teams (id) VALUES (1); INSERT INTO members (id, teamID) VALUES (1, 1), (2, NULL), (3, 9)")
    let after = before.replacingOccurrences(of: "var teamID: Int?", with: "var teamID: Team.ID?")
    // Member 3 references no team: the migrator's foreign key check stops the migration.
    #expect(errors { try migrate(after) }.first?.contains(#"rows of "members" reference rows of "teams" that do not exist"#) == true)
    try database.execute("UPDATE members SET teamID = NULL WHERE id = 3")
    try applyPending()
    let migration = try String(contentsOf: directory.appendingPathComponent("0002_rebuild_members.sql"), encoding: .utf8)
    #expect(migration.contains(#"rebuild table "members", copying every row, because column "teamID" changes its reference from none to "teams"("id") ON DELETE SET NULL"#))
    #expect(try rows("SELECT id, teamID FROM members ORDER BY id") == ["id=1 teamID=1", "id=2 teamID=nil", "id=3 teamID=nil"])
  }

  @Test func rebuildingAParentDeletesNoChild() throws {
    let models = "struct Parent: Table {\n  let id: Int\n  var name = \"\"\n}\nstruct Child: Table {\n  let id: Int\n  let parentID: Parent.ID\n}\n"
    try migrate(models)
    try database.execute("INSERT INTO parents (id, name) VALUES (1, 'one')")
    try database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO children (id, parentID) SELECT i, 1 FROM n")
    try migrate(models.replacingOccurrences(of: "var name = \"\"", with: "// @Column(collate: .nocase)\n  var name = \"\""))
    #expect(try rows("SELECT count(*) AS n FROM children WHERE parentID = 1") == ["n=1000"])
    #expect(try rows("SELECT sql FROM sqlite_schema WHERE name = 'parents'").first?.contains("COLLATE NOCASE") == true)
  }

  @Test func rebuildsKeepAutoincrementCountersRowidsAndTheUsersObjects() throws {
    let models = "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\nstruct Tag: Table {\n  // @Column(primaryKey: true)\n  let name: String\n  var color = 0\n}\n"
    try migrate(models)
    try handWritten(
      "0002_search.sql",
      """
      INSERT INTO notes (id, body) VALUES (1, 'alpha'), (2, 'beta'), (3, 'gamma');
      DELETE FROM notes WHERE id = 3;
      INSERT INTO tags (name) VALUES ('red'), ('blue');
      DELETE FROM tags WHERE name = 'red';
      INSERT INTO tags (name) VALUES ('green');
      CREATE VIRTUAL TABLE notes_search USING fts5(body, content='notes', content_rowid='id');
      INSERT INTO notes_search (notes_search) VALUES ('rebuild');
      CREATE INDEX notes_by_body ON notes(body DESC);
      CREATE VIEW short_notes AS SELECT id FROM notes WHERE length(body) < 5;
      CREATE TABLE edits (noteID INTEGER, at TEXT);
      CREATE TRIGGER note_edited AFTER UPDATE ON notes BEGIN INSERT INTO edits VALUES (new.id, 'now'); END;
      """)
    let tagRowids = try rows("SELECT rowid, name FROM tags ORDER BY rowid")
    let changed = "struct Edit: Table {\n  var noteID: Int?\n  var at: String?\n}\n" + models
      .replacingOccurrences(of: "var body = \"\"", with: "// @Column(collate: .nocase)\n  var body = \"\"")
      .replacingOccurrences(of: "var color = 0", with: "var color = 1")
    let migration = try #require(try migrate(changed, allowDataLoss: false))
    #expect(migration.summary.count == 3, "\(migration.summary)")

    // The counter: a new note does not reuse the deleted 3.
    try database.execute("INSERT INTO notes (body) VALUES ('delta')")
    #expect(try rows("SELECT id, body FROM notes ORDER BY id") == ["id=1 body=alpha", "id=2 body=beta", "id=4 body=delta"])
    // The rowids of a table without an integer key.
    #expect(try rows("SELECT rowid, name FROM tags ORDER BY rowid") == tagRowids)
    // The user's index, view, trigger and full-text index.
    #expect(try rows("SELECT name FROM sqlite_schema WHERE name = 'notes_by_body'") == ["name=notes_by_body"])
    #expect(try rows("SELECT id FROM short_notes ORDER BY id") == ["id=2"])
    try database.execute("UPDATE notes SET body = 'ALPHA' WHERE id = 1")
    #expect(try rows("SELECT noteID FROM edits") == ["noteID=1"])
    #expect(try rows("SELECT rowid FROM notes_search WHERE notes_search MATCH 'beta'") == ["rowid=2"])
    // Nothing left to do, and the full-text tables are the user's, not tables to drop.
    #expect(try migrate(changed) == nil)
  }

  @Test func severalChangesAtOnceMakeOneMigrationThatApplies() throws {
    try seedLibrary()
    let changed = """
      struct Author: Table, Identifiable {
        let id: Int
        // @Renamed(from: "name")
        var fullName = ""
        var country: String?
      }
      struct Book: Table, Identifiable {
        let id: Int
        let authorID: Author.ID
        var title = ""
        var pages = 0
        // @Index
        var year = 2000
      }
      """
    #expect(errors { try migrate(changed) }.count == 2, "born and note need consent")
    let migration = try #require(try migrate(changed, allowDataLoss: true))
    #expect(migration.summary == [
      #"rename column "name" of "authors" to "fullName""#, #"drop column "born" of "authors", deleting its values"#,
      #"drop column "note" of "books", deleting its values"#, #"add column "country" to "authors""#,
      #"add column "year" to "books""#, #"create index "index_books_on_year""#,
    ])
    #expect(try rows("SELECT * FROM authors ORDER BY id") == ["id=1 fullName=Ursula country=nil", "id=2 fullName=Italo country=nil"])
    #expect(try rows("SELECT * FROM books ORDER BY id") == [
      "id=1 authorID=1 title=Earthsea pages=183 year=2000", "id=2 authorID=1 title=Lathe pages=184 year=2000",
      "id=3 authorID=2 title=Cities pages=165 year=2000",
    ])
    #expect(try migrate(changed) == nil)
  }

  @Test func indexesComeAndGoWithTheirAnnotations() throws {
    try seedLibrary()
    let indexed = Self.library.replacingOccurrences(of: "  var pages = 0\n", with: "  // @Index\n  var pages = 0\n")
    #expect(try migrate(indexed)?.summary == [#"create index "index_books_on_pages""#])
    #expect(try migrate(Self.library)?.summary == [#"drop index "index_books_on_pages""#])
    #expect(try rows("SELECT count(*) AS n FROM books") == ["n=3"])
  }

  @Test func indexesOnSeveralColumnsComeAndGoWithTheirAnnotations() throws {
    try seedLibrary()
    let indexed = Self.library.replacingOccurrences(
      of: "struct Book: Table", with: "// @Index(on: \"authorID, pages\")\n// @Unique(on: \"authorID, title\")\nstruct Book: Table")
    // The foreign key's own index goes: the new ones start with its column.
    #expect(
      try migrate(indexed)?.summary == [
        #"drop index "index_books_on_authorID""#, #"create index "index_books_on_authorID_pages""#,
        #"create index "index_books_on_authorID_title""#,
      ])
    #expect(try migrate(indexed) == nil)
    #expect(
      try rows("SELECT name, \"unique\" FROM pragma_index_list('books') ORDER BY name") == [
        "name=index_books_on_authorID_pages unique=0", "name=index_books_on_authorID_title unique=1",
      ])
    // The unique index refuses a second book of the same title by the same author.
    #expect(throws: (any Error).self) { try database.execute("INSERT INTO books (authorID, title) VALUES (1, 'Earthsea')") }
    #expect(try migrate(Self.library)?.summary == [
      #"drop index "index_books_on_authorID_pages""#, #"drop index "index_books_on_authorID_title""#,
      #"create index "index_books_on_authorID""#,
    ])
    #expect(try rows("SELECT count(*) AS n FROM books") == ["n=3"])
  }

  @Test func aKeylessTableGetsAKeyAndItsRowsGetValues() throws {
    try migrate("struct Link: Table {\n  var from = 0\n  var to = 0\n}\n")
    try database.execute("INSERT INTO links (\"from\", \"to\") VALUES (1, 2), (2, 3)")
    let keyed = try #require(try migrate("struct Link: Table {\n  let id: UUID\n  var from = 0\n  var to = 0\n}\n"))
    #expect(keyed.summary.first?.hasPrefix(#"rebuild table "links", copying every row, because column "id" is added, and it is the primary key"#) == true)
    #expect(try rows("SELECT \"from\", \"to\", length(id) AS idLength FROM links ORDER BY \"from\"") == [
      "from=1 to=2 idLength=36", "from=2 to=3 idLength=36",
    ])
  }

  @Test func aHandWrittenNonStrictTableBecomesStrict() throws {
    try handWritten("0001_legacy.sql", "CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '');\nINSERT INTO items (name) VALUES ('a'), ('b');")
    let migration = try #require(try migrate("struct Item: Table {\n  let id: Int\n  var name = \"\"\n}\n"))
    #expect(migration.summary == [#"rebuild table "items", copying every row, because it becomes STRICT; fails, changing nothing and naming the row, if a value of "name" does not convert to TEXT exactly"#])
    #expect(try rows("SELECT id, name FROM items ORDER BY id") == ["id=1 name=a", "id=2 name=b"])
    #expect(try rows("SELECT strict FROM pragma_table_list WHERE name = 'items'") == ["strict=1"])
  }

  // MARK: Groups and enums

  static let attachments = """
    struct Attachment: Table, Identifiable {
      let id: Int
      var kind: Kind
      enum Kind: Selection {
        case link(String)
        case note(String)
      }
    }
    """

  @Test func aNewCaseAddsItsColumnsAndARemovedOneNeedsConsent() throws {
    try migrate(Self.attachments)
    try database.execute(#"INSERT INTO attachments (id, link, note) VALUES (1, 'a.com', NULL), (2, NULL, 'hi')"#)
    let withImage = Self.attachments.replacingOccurrences(
      of: "    case note(String)\n", with: "    case note(String)\n    case image(Image)\n  }\n  struct Image: Selection {\n    var caption = \"\"\n    var url: String\n")
    // The table's CHECK that keeps each row to one case changes with the cases: a rebuild, whose
    // copied rows must each hold one case of the new enum.
    let migration = try #require(try migrate(withImage))
    #expect(migration.summary == [
      #"rebuild table "attachments", copying every row, because the cases of 'kind' change, column "caption" is added, column "url" is added; fails, changing nothing and naming the row, if a row would hold no single case of 'kind'"#
    ])
    #expect(migration.sql.contains(#"  "caption" TEXT,"#))
    #expect(try rows("SELECT * FROM attachments ORDER BY id") == [
      "id=1 link=a.com note=nil caption=nil url=nil", "id=2 link=nil note=hi caption=nil url=nil",
    ])
    let withoutNotes = withImage.replacingOccurrences(of: "    case note(String)\n", with: "")
    #expect(errors { try migrate(withoutNotes) } == [
      #"table "attachments": column "note" is in the migrations but not in the model, and dropping it would delete its values; if the property was renamed, mark it // @Renamed(from: "note"); to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"#
    ])
    #expect(try rows("SELECT count(*) AS n FROM attachments WHERE note IS NOT NULL") == ["n=1"])
  }

}

extension SQLiteRow {
  /// `column=value` for each column, `nil` for NULL.
  var text: String {
    columnNames.map { "\($0)=\(self[$0] ?? "nil")" }.joined(separator: " ")
  }
}
