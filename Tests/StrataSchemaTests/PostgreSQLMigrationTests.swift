import Foundation
import Testing

@testable import StrataSchema
import StrataTestSupport

/// PostgreSQL migrations from the same models, on a real server: `STRATA_POSTGRES_URL` (which
/// `.ci/run` sets to the server it starts), or a throwaway one from the machine's binaries. Each
/// test writes migrations, applies them to a database of its own, fills it with rows, changes
/// the models and checks every row afterwards, as the SQLite evolution tests do.
@Suite(.serialized, .blockingWork, .enabled(if: PostgreSQLServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
final class PostgreSQLMigrationTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  let directory: URL
  let database: PsqlDatabase
  private var applied: Set<String> = []
  /// The schema snapshot the last migration left, as `generate-migrations` keeps it.
  private var snapshot: String?

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-postgres-migrations-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    database = try PostgreSQLServer.shared().scratchDatabase()
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  func models(_ source: String) throws -> ModelSet {
    try Generator(sources: [("Models.swift", source)]).models(for: .postgresql)
  }

  /// Plans the next migration, writes it and applies it, as the next launch would.
  @discardableResult
  func migrate(_ source: String, allowDataLoss: Bool = false) throws -> MigrationPlan.NewMigration? {
    let files = try MigrationFiles(directory: directory.path, root: nil)
    let plan = try MigrationPlanner.plan(
      models: try models(source), migrations: files, moduleName: "App", allowDataLoss: allowDataLoss, previousSnapshot: snapshot)
    guard let migration = plan.newMigration else { return nil }
    try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
    for file in try MigrationFiles(directory: directory.path, root: nil).files where !applied.contains(file.name) {
      do {
        try database.apply(file)
      } catch {
        // A migration that stops is not applied, and the next plan starts from the same files.
        try FileManager.default.removeItem(atPath: file.path)
        throw error
      }
      applied.insert(file.name)
    }
    snapshot = plan.snapshot
    return migration
  }

  /// Writes a hand-written migration and applies it.
  func handWritten(_ name: String, _ sql: String) throws {
    let path = directory.appendingPathComponent(name).path
    try AtomicFile.write(sql, to: path)
    let file = try #require(try MigrationFiles(directory: directory.path, root: nil).files.first { $0.path == path })
    try database.apply(file)
    applied.insert(file.name)
  }

  /// The rows of a query, one line each, columns separated by `|`.
  func rows(_ sql: String) throws -> [String] {
    try database.run(sql).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
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

  func expectGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = Self.fixtures.appendingPathComponent("PostgreSQL").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["STRATA_UPDATE_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(text == (try String(contentsOf: url, encoding: .utf8)), sourceLocation: sourceLocation)
  }

  // MARK: First migrations

  @Test func theSeedsScorekeeperAsAPostgreSQLMigration() throws {
    let source = try String(contentsOf: EmitterGoldenTests.scorekeeperModels, encoding: .utf8)
    let migration = try #require(try migrate(source))
    try expectGolden(migration.sql, "Scorekeeper.sql.golden")
    // Applied, the server's schema is the models': the next plan has nothing to do.
    #expect(try migrate(source) == nil)
    try database.execute(
      #"INSERT INTO games (title) VALUES ('Family gin rummy'); INSERT INTO players ("gameID", name, score) SELECT id, 'Blob', 20 FROM games;"#)
    #expect(try rows(#"SELECT g.title, p.name, p.score FROM players p JOIN games g ON g.id = p."gameID""#) == ["Family gin rummy|Blob|20"])
    #expect(try rows("SELECT length(id::text) FROM games") == ["36"])
  }

  @Test func theLibraryAsAPostgreSQLMigration() throws {
    // The schema language's Library, without SQLite's NOCASE, which PostgreSQL does not have.
    let source = try String(contentsOf: Self.fixtures.appendingPathComponent("SchemaLanguage/Library.swift"), encoding: .utf8)
      .replacingOccurrences(of: "  // @Column(collate: .nocase)\n", with: "")
      .replacingOccurrences(of: "primaryKey: true, collate: .nocase", with: "primaryKey: true")
    let migration = try #require(try migrate(source))
    try expectGolden(migration.sql, "Library.sql.golden")
    #expect(try migrate(source) == nil)
    try database.execute(
      """
      INSERT INTO library_authors (name) VALUES ('Ursula');
      INSERT INTO books ("authorID", tags, published, cover) VALUES (1, '["sea", "magic"]', 1700000000, '\\xcafe');
      INSERT INTO reviews ("bookID", reader, stars) SELECT id, 'Ada', 5 FROM books;
      """)
    #expect(try rows(#"SELECT title, genre, format, "inPrint", tags->>1, encode(cover, 'hex') FROM books"#) == ["Untitled|1|paperback|t|magic|cafe"])
    #expect(errors { try database.execute("INSERT INTO reviews (\"bookID\", reader, stars) SELECT id, 'Bo', 9 FROM books") }.first?.contains("violates check constraint") == true)
  }

  // MARK: Changes

  static let players = """
    struct Player: Table, Identifiable {
      let id: Int
      var name = ""
      var score = 0
      var nickname: String?
    }
    """

  func seedPlayers() throws {
    try migrate(Self.players)
    try database.execute("INSERT INTO players (name, score, nickname) VALUES ('Ada', 3, 'ace'), ('Bo', 5, NULL), ('Cy', 8, NULL)")
  }

  @Test func columnsAreAddedRenamedAndDroppedWithConsent() throws {
    try seedPlayers()
    let added = Self.players.replacingOccurrences(of: "  var score = 0\n", with: "  var score = 0\n  var isActive = true\n  var rating: Double?\n")
    let migration = try #require(try migrate(added))
    #expect(migration.summary == [#"add column "isActive" to "players""#, #"add column "rating" to "players""#])
    #expect(migration.sql.contains(#"ALTER TABLE "players" ADD COLUMN "isActive" boolean NOT NULL DEFAULT TRUE;"#))
    let renamed = added.replacingOccurrences(of: "  var name = \"\"\n", with: "  // @Renamed(from: \"name\")\n  var handle = \"\"\n")
    #expect(try migrate(renamed)?.sql.contains(#"ALTER TABLE "players" RENAME COLUMN "name" TO "handle";"#) == true)
    #expect(try rows("SELECT handle, \"isActive\" FROM players ORDER BY id") == ["Ada|t", "Bo|t", "Cy|t"])
    let smaller = renamed.replacingOccurrences(of: "  var nickname: String?\n", with: "")
    #expect(errors { try migrate(smaller) }.first?.hasPrefix(#"table "players": column "nickname" is in the migrations but not in the model, and dropping it would delete its values"#) == true)
    #expect(try migrate(smaller, allowDataLoss: true)?.sql.contains(#"ALTER TABLE "players" DROP COLUMN "nickname";"#) == true)
    #expect(try rows("SELECT handle, score FROM players ORDER BY id") == ["Ada|3", "Bo|5", "Cy|8"])
  }

  @Test func aTypeChangesInPlaceAndStopsBeforeRoundingAFraction() throws {
    try seedPlayers()
    let real = Self.players.replacingOccurrences(of: "var score = 0", with: "var score = 0.0")
    let migration = try #require(try migrate(real))
    #expect(migration.fileName == "0002_alter_players.sql")
    #expect(migration.sql.contains(#"ALTER TABLE "players" ALTER COLUMN "score" TYPE double precision USING "score"::double precision;"#))
    #expect(migration.sql.contains("-- On a live server: changing the type of \"players\".\"score\" rewrites every row"))
    try database.execute("UPDATE players SET score = 2.5 WHERE name = 'Bo'")
    let message = errors { try migrate(Self.players) }.first ?? ""
    #expect(message.contains(#"strata: "players": the row whose "id" is 2 holds a fraction in "players"."score", which becomes a rounded bigint: the migration changes nothing"#), "\(message)")
    #expect(try rows("SELECT score FROM players ORDER BY id") == ["3", "2.5", "8"])
    let lossy = Self.players.replacingOccurrences(of: "  var score = 0\n", with: "  // @AllowLossyConversion\n  var score = 0\n")
    try migrate(lossy)
    // PostgreSQL rounds half to even: 2.5 becomes 2.
    #expect(try rows("SELECT score FROM players ORDER BY id") == ["3", "2", "8"])
  }

  @Test func aValueTheNewTypeCannotReadStopsTheMigrationNamingTheRow() throws {
    try seedPlayers()
    let numeric = Self.players.replacingOccurrences(of: "  var nickname: String?\n", with: "  var nickname: Int?\n")
    try database.execute("UPDATE players SET nickname = '12' WHERE name = 'Ada'; UPDATE players SET nickname = 'x7' WHERE name = 'Cy'")
    let message = errors { try migrate(numeric) }.first ?? ""
    #expect(message.contains(#"strata: "players": the row whose "id" is 3 holds 'x7' in "players"."nickname", which does not convert to bigint: the migration changes nothing"#), "\(message)")
    #expect(try rows("SELECT nickname FROM players ORDER BY id") == ["12", "x7"])
    try database.execute("UPDATE players SET nickname = '7' WHERE name = 'Cy'")
    try migrate(numeric)
    #expect(try rows("SELECT nickname + 1 FROM players WHERE nickname IS NOT NULL ORDER BY id") == ["13", "8"])
  }

  @Test func aNewRequiredColumnNeedsADefaultOrABackfill() throws {
    try seedPlayers()
    let required = Self.players.replacingOccurrences(of: "  var score = 0\n", with: "  var score = 0\n  var team: String\n")
    let message = errors { try migrate(required) }.first ?? ""
    #expect(message.contains(#"column "team" is new, NOT NULL and without a default, and the table may have rows that need a value for it"#), "\(message)")
    #expect(try rows("SELECT count(*) FROM information_schema.columns WHERE table_name = 'players' AND column_name = 'team'") == ["0"])
    let backfilled = Self.players.replacingOccurrences(
      of: "  var score = 0\n", with: "  var score = 0\n  // @Backfill(raw: \"upper(name)\")\n  var team: String\n")
    let migration = try #require(try migrate(backfilled))
    #expect(migration.sql.contains(#"UPDATE "players" SET "team" = (upper(name));"#), "\(migration.sql)")
    #expect(try rows("SELECT name, team FROM players ORDER BY id") == ["Ada|ADA", "Bo|BO", "Cy|CY"])
    #expect(try rows("SELECT is_nullable FROM information_schema.columns WHERE table_name = 'players' AND column_name = 'team'") == ["NO"])
  }

  @Test func notNullAndUniqueStopOnTheRowsThatBreakThem() throws {
    try seedPlayers()
    let required = Self.players.replacingOccurrences(of: "  var nickname: String?\n", with: "  var nickname: String\n")
    let message = errors { try migrate(required) }.first ?? ""
    #expect(message.contains(#"strata: "players": the row whose "id" is 2 has no "nickname" (NULL), so "players"."nickname" cannot become NOT NULL"#), "\(message)")
    let unique = Self.players.replacingOccurrences(of: "  var score = 0\n", with: "  // @Unique\n  var score = 0\n")
    try database.execute("UPDATE players SET score = 3 WHERE name = 'Cy'")
    let duplicates = errors { try migrate(unique) }.first ?? ""
    #expect(duplicates.contains(#"strata: "players": the row whose "id" is 1 shares its "score" with another row, so "players"."score" cannot become UNIQUE"#), "\(duplicates)")
    try database.execute("UPDATE players SET score = 9 WHERE name = 'Cy'")
    try migrate(unique)
    let filled = unique.replacingOccurrences(of: "  var nickname: String?\n", with: "  var nickname = \"?\"\n")
    let shared = errors { try migrate(filled) }
    #expect(shared.isEmpty)
    #expect(try rows("SELECT name, nickname FROM players ORDER BY id") == ["Ada|ace", "Bo|?", "Cy|?"])
  }

  @Test func aNewReferenceIsAddedWithoutBlockingWritesAndChecksTheRows() throws {
    let base = """
      struct Team: Table, Identifiable {
        let id: Int
        var name = ""
      }
      struct Member: Table, Identifiable {
        let id: Int
        var teamID: Int
      }
      """
    try migrate(base)
    try database.execute("INSERT INTO teams (name) VALUES ('a'); INSERT INTO members (\"teamID\") VALUES (1), (7)")
    let referencing = base.replacingOccurrences(of: "var teamID: Int", with: "var teamID: Team.ID")
    let message = errors { try migrate(referencing) }.first ?? ""
    #expect(message.contains("violates foreign key constraint"), "\(message)")
    try database.execute("DELETE FROM members WHERE \"teamID\" = 7")
    let migration = try #require(try migrate(referencing))
    #expect(migration.sql.contains(#"ALTER TABLE "members" ADD FOREIGN KEY ("teamID") REFERENCES "teams"("id") ON DELETE CASCADE NOT VALID;"#))
    #expect(migration.sql.contains("VALIDATE CONSTRAINT"))
    #expect(try migrate(referencing) == nil)
  }

  @Test func checksAreAddedAndChangedByName() throws {
    try seedPlayers()
    let checked = "// @Check(raw: \"score >= 4\")\n" + Self.players
    let message = errors { try migrate(checked) }.first ?? ""
    #expect(message.contains(#"strata: "players": the row whose "id" is 1 breaks the new CHECK (score >= 4): the migration changes nothing"#), "\(message)")
    try database.execute("UPDATE players SET score = 4 WHERE name = 'Ada'")
    try migrate(checked)
    let changed = checked.replacingOccurrences(of: "score >= 4", with: "score >= 0")
    let migration = try #require(try migrate(changed))
    #expect(migration.sql.contains(#"ALTER TABLE "players" DROP CONSTRAINT "players_score_check";"#), "\(migration.sql)")
    #expect(migration.sql.contains("ALTER TABLE \"players\" ADD CHECK (score >= 0);"), "\(migration.sql)")
    #expect(try migrate(changed) == nil)
    #expect(errors { try database.execute("UPDATE players SET score = -1") }.first?.contains("violates check constraint") == true)
  }

  /// An enum stored in a table: the CHECK that keeps each row to one case, a default case for
  /// the rows a change would leave without one, and a stop, naming the row, without one.
  @Test func anEnumStoredInATableHoldsOneCaseInEveryRow() throws {
    let base = """
      struct Attachment: Table, Identifiable {
        let id: Int
        var title = ""
      }
      """
    func withKind(_ cases: String, default value: String = "") -> String {
      base.replacingOccurrences(of: "  var title = \"\"\n", with: "  var title = \"\"\n  var kind: Kind\(value)\n")
        + "\nenum Kind: Selection {\n\(cases)\n}\nstruct Image: Selection {\n  var caption = \"\"\n  var url: String\n}\n"
    }
    let cases = "  case link(String)\n  case note(String)\n  case image(Image)"
    try migrate(base)
    try database.execute("INSERT INTO attachments (title) VALUES ('a'), ('b')")
    let message = errors { try migrate(withKind(cases)) }.first ?? ""
    #expect(message.contains(#"strata: "attachments": the row whose "id" is 1 would hold no single, whole case of 'kind' (Kind)"#), "\(message)")
    let migration = try #require(try migrate(withKind(cases, default: #" = .note("(none)")"#)))
    #expect(migration.sql.contains(#"UPDATE "attachments" SET "link" = NULL, "note" = '(none)', "caption" = NULL, "url" = NULL WHERE NOT ("#), "\(migration.sql)")
    #expect(migration.sql.contains(#"ADD CONSTRAINT "attachments_kind_holds_one_case" CHECK"#), "\(migration.sql)")
    #expect(try rows("SELECT id, link, note FROM attachments ORDER BY id") == ["1||(none)", "2||(none)"])
    #expect(try migrate(withKind(cases, default: #" = .note("(none)")"#)) == nil)
    let refused = errors { try database.execute("UPDATE attachments SET note = NULL WHERE id = 1") }.first ?? ""
    #expect(refused.contains(#"violates check constraint "attachments_kind_holds_one_case""#), "\(refused)")
    // A removed case that a row holds becomes the default case, with consent to drop its columns.
    try database.execute("UPDATE attachments SET note = NULL, caption = 'Cat', url = 'cat.png' WHERE id = 2")
    try migrate(withKind("  case link(String)\n  case note(String)", default: #" = .note("(none)")"#), allowDataLoss: true)
    #expect(try rows("SELECT id, link, note FROM attachments ORDER BY id") == ["1||(none)", "2||(none)"])
  }

  @Test func aColumnReadAsAnEnumChecksItsValues() throws {
    try seedPlayers()
    try database.execute("UPDATE players SET nickname = 'zzz' WHERE name = 'Cy'")
    let typed = Self.players.replacingOccurrences(of: "  var nickname: String?\n", with: "  var nickname: Nick?\n") + "\nenum Nick: String {\n  case ace, duke\n}\n"
    let message = errors { try migrate(typed) }.first ?? ""
    #expect(message.contains(#"strata: "players": the row whose "id" is 3 holds a value in "players"."nickname" which the model cannot read as Nick"#), "\(message)")
    try database.execute("UPDATE players SET nickname = 'duke' WHERE name = 'Cy'")
    try migrate(typed)
    #expect(try migrate(typed) == nil)
  }

  @Test func tablesAreRenamedAndKeysOnSeveralColumnsChange() throws {
    let base = """
      // @Unique(on: "owner, label")
      struct Pin: Table {
        var owner: String
        var label: String
        var position = 0
      }
      """
    try migrate(base)
    try database.execute("INSERT INTO pins (owner, label) VALUES ('ada', 'a'), ('ada', 'b'), ('bo', 'a')")
    let renamed = base.replacingOccurrences(of: "struct Pin: Table {", with: "// @Renamed(from: \"pins\")\n// @Table(\"markers\")\nstruct Pin: Table {")
    #expect(try migrate(renamed)?.sql.contains(#"ALTER TABLE "pins" RENAME TO "markers";"#) == true)
    let keyed = renamed.replacingOccurrences(of: "// @Unique(on: \"owner, label\")", with: "// @PrimaryKey(on: \"owner, label\")")
    let migration = try #require(try migrate(keyed))
    #expect(migration.sql.contains(#"ADD PRIMARY KEY ("owner", "label");"#), "\(migration.sql)")
    #expect(try migrate(keyed) == nil)
    #expect(try rows("SELECT owner, label FROM markers ORDER BY owner, label") == ["ada|a", "ada|b", "bo|a"])
    #expect(errors { try database.execute("INSERT INTO markers (owner, label) VALUES ('bo', 'a')") }.first?.contains("duplicate key") == true)
  }

  @Test func viewsAreCreatedChangedAndDropped() throws {
    let withView = Self.players + """

      // @View(raw: "SELECT name, score * 2 FROM players WHERE score > 4")
      struct Leader: Table {
        let name: String
        let doubled: Int
      }
      """
    try seedPlayers()
    let created = try #require(try migrate(withView))
    #expect(created.summary == [#"create view "leaders""#])
    #expect(created.sql.contains(#"CREATE VIEW "leaders" ("name", "doubled") AS"#), "\(created.sql)")
    #expect(try migrate(withView) == nil)
    #expect(try rows("SELECT name, doubled FROM leaders ORDER BY name") == ["Bo|10", "Cy|16"])
    let changed = withView.replacingOccurrences(of: "score > 4", with: "score > 6")
    #expect(try migrate(changed)?.summary == [#"drop view "leaders""#, #"create view "leaders""#])
    #expect(try rows("SELECT name FROM leaders") == ["Cy"])
    // A type change of a column views read: a hand-written view is dropped and created again,
    // as it was, around it; the model's is recreated from the model.
    try handWritten("0004_top.sql", "CREATE VIEW top AS SELECT name, score FROM players WHERE score > 4;")
    let real = changed.replacingOccurrences(of: "var score = 0", with: "var score = 0.0")
    let altered = try #require(try migrate(real))
    #expect(
      altered.sql.contains(
        "DROP VIEW \"top\";\nALTER TABLE \"players\" ALTER COLUMN \"score\" DROP DEFAULT;\nALTER TABLE \"players\" ALTER COLUMN \"score\" TYPE double precision USING \"score\"::double precision;\nALTER TABLE \"players\" ALTER COLUMN \"score\" SET DEFAULT 0.0;"),
      "\(altered.sql)")
    #expect(try rows("SELECT name, doubled FROM leaders") == ["Cy|16"])
    #expect(try rows("SELECT name, score FROM top ORDER BY name") == ["Bo|5", "Cy|8"])
    #expect(try migrate(Self.players.replacingOccurrences(of: "var score = 0", with: "var score = 0.0"))?.summary == [#"drop view "leaders""#])
    #expect(try rows("SELECT count(*) FROM pg_views WHERE viewname = 'leaders'") == ["0"])
  }

  // MARK: Import

  @Test func anExistingDatabaseIsImportedAsModelsAndABaseline() throws {
    try database.execute(
      """
      CREATE TABLE customers (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name text NOT NULL DEFAULT '', email text UNIQUE, vip boolean NOT NULL DEFAULT false);
      CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), "customerID" bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE, total double precision NOT NULL, note varchar(40));
      CREATE INDEX "index_orders_on_customerID" ON orders ("customerID");
      CREATE VIEW vips AS SELECT name, email FROM customers WHERE vip;
      INSERT INTO customers (name) VALUES ('Ada');
      """)
    let imported = try DatabaseImport(postgreSQL: database.server.url(of: try #require(database.name)), source: "shop")
    #expect(imported.tableCount == 2)
    #expect(imported.unmanagedCount == 1)
    #expect(imported.viewCount == 1)
    #expect(imported.swiftModels.contains("struct Vip: Table {"), "\(imported.swiftModels)")
    #expect(imported.baseline.contains(#"CREATE VIEW "vips" ("name", "email") AS"#), "\(imported.baseline)")
    #expect(imported.swiftModels.contains("""
      struct Customer: Table, Identifiable {
        let id: Int
        var name: String = ""
        // @Unique
        var email: String?
        var vip: Bool = false
      }
      """), "\(imported.swiftModels)")
    // A varchar(40) is not a column Strata's models declare: the table is the migrations'.
    #expect(imported.notes.contains { $0.hasPrefix(#"table "orders" is // @Unmanaged (its migrations make it as it is): Strata's model would alter table "orders" in place, because column "note" changes type from character varying(40) to text"#) }, "\(imported.notes)")
    #expect(imported.baseline.contains(#"  "note" character varying(40)"#))
    // The models and the baseline agree: the next migration has nothing to do.
    try imported.baseline.write(to: directory.appendingPathComponent("0001_imported_schema.sql"), atomically: true, encoding: .utf8)
    let plan = try MigrationPlanner.plan(
      models: try models(imported.swiftModels), migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App")
    #expect(plan.newMigration == nil)
    #expect(try rows("SELECT name FROM customers") == ["Ada"])
  }

  // MARK: What PostgreSQL does not have

  @Test func modelFeaturesWithoutAPostgreSQLMeaningAreErrorsAtTheirLine() throws {
    func errors(_ source: String) -> [String] {
      do {
        _ = try models(source)
        return []
      } catch let error as DiagnosticsError {
        return error.diagnostics.map { "\($0.location.line): \($0.message)" }
      } catch {
        return ["\(error)"]
      }
    }
    #expect(errors("struct A: Table {\n  let id: Int\n  // @Column(collate: .nocase)\n  var name: String\n}").first?.hasPrefix(
      "4: column \"name\" is COLLATE NOCASE, which PostgreSQL does not have") == true)
    #expect(errors("struct A: Table {\n  let id: Int\n  // @Generated(raw: \"id * 2\")\n  var twice: Int\n}").first?.hasPrefix(
      "4: column \"twice\" is a virtual generated column, which PostgreSQL 15 does not have; write @Generated(raw: …, stored: true)") == true)
    #expect(errors("struct A: Table {\n  let id: Int\n  var value: StoredValue\n}").first?.hasPrefix("3: column \"value\" holds values of any type") == true)
    #expect(errors("struct T: FTS5 {\n  let rowid: Int\n  let body: String\n}").first?.hasPrefix(
      "1: 'T' is an FTS5 full-text index, which is SQLite's; the target's migrations are for PostgreSQL") == true)
    #expect(errors("// @Table(schema: \"cache\")\nstruct A: Table {\n  let id: Int\n}").first?.hasPrefix("2: 'A' is in an attached database") == true)
  }
}
