import Foundation
import StrataSQL
import Testing

@testable import StrataSchema

/// `strata import`: an existing database's schema becomes models and a baseline migration that
/// the planner finds nothing to add to, with Swift models or a schema file; what models cannot
/// say stays in the baseline and is reported; the output is stable.
@Suite struct ImportTests {
  static let fixtures = EmitterGoldenTests.fixtures.appendingPathComponent("Import")

  /// A database file made by running `sql`; removed by the caller.
  static func database(_ sql: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("strata-import-\(UUID().uuidString).sqlite").path
    let connection = try SQLiteConnection()
    try connection.execute(sql)
    try connection.execute("VACUUM INTO \(SQLQuoting.string(path))")
    return path
  }

  static func existing() throws -> DatabaseImport {
    let sql = try String(contentsOf: fixtures.appendingPathComponent("existing.sql"), encoding: .utf8)
    let path = try database(sql)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try DatabaseImport(databaseAt: path, source: "existing.sqlite")
  }

  /// The migration the planner would write for `models` on top of the baseline: none, when the
  /// import reproduced the schema.
  static func nextMigration(_ models: (path: String, contents: String), baseline: String) throws -> String? {
    let migrations = MigrationFiles(directory: "Migrations", files: [("0001_imported_schema", baseline)])
    let plan = try MigrationPlanner.plan(models: try Generator(sources: [models]).models(), migrations: migrations, moduleName: "App")
    return plan.newMigration?.sql
  }

  @Test func theImportedModelsNeedNoMigration() throws {
    let imported = try Self.existing()
    #expect(try Self.nextMigration(("ImportedModels.swift", imported.swiftModels), baseline: imported.baseline) == nil)
    #expect(try Self.nextMigration(("Schema.strata", imported.schemaFile), baseline: imported.baseline) == nil)
  }

  @Test func tablesInStrataConventionsAreManagedAndOthersUnmanagedWithTheReason() throws {
    let imported = try Self.existing()
    let models = try Generator(sources: [("ImportedModels.swift", imported.swiftModels)]).models()
    let unmanaged = models.tables.filter(\.isUnmanaged).map(\.tableName).sorted()
    #expect(unmanaged == ["itemCategories", "itemTitles", "items", "player", "taggings", "team member"])
    #expect(imported.viewCount == 1)
    #expect(models.tables.filter { !$0.isUnmanaged }.map(\.swiftName).sorted() == ["Category", "Game", "GameTag", "PlayerRecord", "Tag"])
    #expect(imported.tableCount == 10)
    #expect(imported.unmanagedCount == 5)
    // The managed Scorekeeper tables are the seed's models.
    #expect(imported.swiftModels.contains("struct PlayerRecord: Table, Identifiable {\n  let id: UUID\n  var gameID: Game.ID\n"))
    let notes = imported.notes.joined(separator: "\n")
    #expect(notes.contains(#"table "itemCategories" is // @Unmanaged (its migrations make it as it is): Strata's model would create index "index_itemCategories_on_categoryID""#))
    // A composite key, a CHECK, expression defaults and a partial index are all in the model.
    #expect(imported.swiftModels.contains(
      """
      // @PrimaryKey(on: "gameID, tag")
      // @Check(raw: "\\"weight\\" >= 0")
      // @Index(on: "weight", whereRaw: "\\"weight\\" > 1")
      struct GameTag: Table {
        // @Index
        var gameID: Game.ID
        var tag: String
        // @Default(raw: "CURRENT_TIMESTAMP")
        var addedAt: String
        // @Default(raw: "datetime('now', '+1 year')")
        var expiresAt: String?
      """), "\(imported.swiftModels)")
    #expect(notes.contains(#"table "player" is // @Unmanaged (its migrations make it as it is): it is not STRICT; column "teamId" has an ON UPDATE action"#))
    #expect(notes.contains(#"Strata's model would rebuild table "items""#))
    #expect(notes.contains(#"view "itemTitles" is kept in the baseline and gets a read-only // @Unmanaged model, 'ItemTitle'"#))
    #expect(imported.swiftModels.contains("// @Unmanaged\nstruct ItemTitle: Table {\n  var title: String?\n}"), "\(imported.swiftModels)")
    #expect(notes.contains(#"trigger "update_item_timestamp" is kept in the baseline"#))
    #expect(notes.contains(#"virtual table "itemTexts" is kept in the baseline"#))
    #expect(notes.contains(#"index "idx_items_search" is kept in the baseline"#))
    #expect(notes.contains(#"the generated column "doubled" is not a property"#))
    #expect(notes.contains(#"the column "rowid" is not a property"#))
  }

  @Test func theBaselineIsTheDatabasesOwnSchema() throws {
    let imported = try Self.existing()
    #expect(imported.baseline.hasPrefix(MigrationFiles.baselineMarker + "\n"))
    // Replayed, it gives the database's schema: tables, indexes, views, triggers, FTS.
    let original = try SQLiteConnection()
    try original.execute(try String(contentsOf: Self.fixtures.appendingPathComponent("existing.sql"), encoding: .utf8))
    let replayed = try SQLiteConnection()
    try replayed.execute(imported.baseline)
    let objects = "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE '%grdb_migrations%' ORDER BY name"
    let replayedRows = try replayed.rows(objects).map { [$0["type"], $0["name"], $0["sql"]] }
    let originalRows = try original.rows(objects).map { [$0["type"], $0["name"], $0["sql"]] }
    #expect(replayedRows == originalRows)
    // GRDB's own table is not part of the schema.
    #expect(!imported.baseline.contains("grdb_migrations"))
  }

  @Test func outputIsStable() throws {
    let imported = try Self.existing()
    let golden = EmitterGoldenTests()
    try golden.expectGolden(imported.swiftModels, "Import", "ImportedModels.swift.golden")
    try golden.expectGolden(imported.schemaFile, "Import", "Schema.strata.golden")
    try golden.expectGolden(imported.baseline, "Import", "0001_imported_schema.sql.golden")
    #expect(try Self.existing().swiftModels == imported.swiftModels)
  }

  /// A database Strata made itself comes back as the models it was made from.
  @Test func aStrataDatabaseComesBackAsItsModels() throws {
    let scorekeeper = EmitterGoldenTests.scorekeeperModels
    let source = (scorekeeper.path, try String(contentsOf: scorekeeper, encoding: .utf8))
    let sql = try SchemaLanguageTests.firstMigration([source]).sql
    let path = try Self.database(sql)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let imported = try DatabaseImport(databaseAt: path, source: "scorekeeper.sqlite")
    #expect(imported.unmanagedCount == 0)
    let models = try Generator(sources: [("ImportedModels.swift", imported.swiftModels)]).models()
    #expect(SQLRenderer.schema(models.schema) == SQLRenderer.schema(try Generator(sources: [source]).models().schema))
  }

  @Test func namesFromTheDatabaseReachSwiftOnlyAsLiteralsAndIdentifiers() throws {
    let hostile = #"x"); } struct Evil { init() { fatalError() } //"#
    func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    let path = try Self.database(
      "CREATE TABLE \(quoted(hostile)) (\"id\" INTEGER PRIMARY KEY, \(quoted("*/ \\\" " + hostile)) TEXT DEFAULT '\"); evil(\"');")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let imported = try DatabaseImport(databaseAt: path, source: "evil */ \" \n.sqlite")
    let parsed = SwiftParser.parse(imported.swiftModels, path: "ImportedModels.swift")
    #expect(parsed.types.map(\.name) == ["XStructEvilInitFatalError"])
    #expect(try Self.nextMigration(("ImportedModels.swift", imported.swiftModels), baseline: imported.baseline) == nil)
    #expect(try Self.nextMigration(("Schema.strata", imported.schemaFile), baseline: imported.baseline) == nil)
    // The file name sits in comments, where a line break would end them.
    #expect(imported.baseline.split(separator: "\n").prefix(4).allSatisfy { $0.hasPrefix("--") })
  }

  @Test func whatCannotBeImportedIsAClearError() throws {
    let notDatabase = FileManager.default.temporaryDirectory.appendingPathComponent("strata-import-\(UUID().uuidString).sqlite")
    try "not a database".write(to: notDatabase, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: notDatabase) }
    #expect(throws: InputError.self) { try DatabaseImport(databaseAt: notDatabase.path, source: "x") }
    do {
      _ = try DatabaseImport(databaseAt: notDatabase.path, source: "x")
    } catch let error as InputError {
      #expect("\(error)".contains("cannot read it as a SQLite database"))
    }

    let path = try Self.database("CREATE TABLE \"bad\nname\" (a INTEGER);")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try DatabaseImport(databaseAt: path, source: "x")
      Issue.record("a table name with a line break was imported")
    } catch let error as InputError {
      #expect("\(error)".contains(#"table name "bad\nname" contains"#))
    }

    let unreadable = try Self.database("CREATE TABLE \"t\" (\"rowid\" INTEGER);")
    defer { try? FileManager.default.removeItem(atPath: unreadable) }
    do {
      _ = try DatabaseImport(databaseAt: unreadable, source: "x")
      Issue.record("a table without a readable column was imported")
    } catch let error as InputError {
      #expect("\(error)".contains(#"table "t" has no column a model can read"#))
    }
  }

  @Test func theRegistryMarksTheBaseline() throws {
    let imported = try Self.existing()
    let files = MigrationFiles(
      directory: "Migrations", files: [("0001_imported_schema", imported.baseline), ("0002_next", "SELECT 1;")])
    #expect(files.files.map(\.isBaseline) == [true, false])
    let registry = try files.registry()
    #expect(registry.components(separatedBy: "isBaseline: true,").count == 2)
  }
}

/// A view's columns are typed so that its model reads every row: by declared type, and for an
/// expression by the values it holds (`count(*)` integers, `sum` of reals), `StoredValue` when
/// they are of several kinds or there are none to tell.
@Suite struct ImportedViewTests {
  @Test func aggregatesAreTypedByTheirValues() throws {
    let path = try ImportTests.database(
      """
      CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
      CREATE TABLE books (id INTEGER PRIMARY KEY, authorID INTEGER NOT NULL REFERENCES authors(id), price REAL) STRICT;
      INSERT INTO authors VALUES (1, 'Ann'), (2, 'Bo');
      INSERT INTO books VALUES (1, 1, 2.5), (2, 1, 3.0);
      CREATE VIEW totals AS SELECT authors.name, count(books.id) AS books, sum(books.price) AS spent, max(books.id) AS latest,
        (SELECT 1 WHERE 0) AS unknown
        FROM authors LEFT JOIN books ON books.authorID = authors.id GROUP BY authors.id;
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let imported = try DatabaseImport(databaseAt: path, source: "app.sqlite")
    #expect(
      imported.swiftModels.contains(
        """
        struct Total: Table {
          var name: String?
          var books: Int?
          var spent: Double?
          var latest: Int?
          var unknown: StoredValue?
        }
        """), "\(imported.swiftModels)")
  }
}
