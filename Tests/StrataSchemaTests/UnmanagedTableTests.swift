import Foundation
import Testing

@testable import StrataSchema

/// `// @Unmanaged` models: the planner never creates, changes or drops their tables, and says so
/// at the model when the migrations lack what the model reads.
@Suite struct UnmanagedTableTests {
  static let legacyTable = """
    CREATE TABLE legacy (id INTEGER PRIMARY KEY, name VARCHAR(40), createdAt DATETIME DEFAULT CURRENT_TIMESTAMP);
    CREATE INDEX index_legacy_on_name ON legacy(name);
    """

  static func plan(_ models: String, migrations: [String]) throws -> MigrationPlan {
    let files = MigrationFiles(
      directory: "Migrations", files: migrations.enumerated().map { ("000\($0.offset + 1)_step", $0.element) })
    return try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", models)]).models(), migrations: files, moduleName: "App")
  }

  @Test func theMigrationsAloneMakeAnUnmanagedTable() throws {
    // Not STRICT, other types, a conventional index the model does not declare: all kept.
    let models = """
      import Strata
      // @Table("legacy")
      // @Unmanaged
      struct Legacy: Table, Identifiable {
        let id: Int
        var name: String?
      }
      """
    let plan = try Self.plan(models, migrations: [Self.legacyTable])
    #expect(plan.newMigration == nil)
    #expect(plan.snapshot.contains("CREATE INDEX \"index_legacy_on_name\""))
  }

  @Test func removingTheMarkRebuildsTheTableInStrataConventions() throws {
    let models = """
      import Strata
      // @Table("legacy")
      struct Legacy: Table, Identifiable {
        let id: Int
        var name: String?
        var createdAt: Date?
      }
      """
    let migration = try #require(try Self.plan(models, migrations: [Self.legacyTable]).newMigration)
    #expect(migration.sql.contains("it becomes STRICT"), "\(migration.sql)")
    // The values of a table that was not STRICT are checked before they are converted.
    #expect(
      migration.sql.contains(
        #"INSERT INTO "strata_new_legacy" ("id", "name", "createdAt") SELECT "id", CASE WHEN typeof("name") = 'real' AND CAST(CAST("name" AS TEXT) AS REAL) <> "name" THEN printf('%!.17g', "name") ELSE CAST("name" AS TEXT) END, CASE WHEN typeof("createdAt") = 'real' AND CAST(CAST("createdAt" AS TEXT) AS REAL) <> "createdAt" THEN printf('%!.17g', "createdAt") ELSE CAST("createdAt" AS TEXT) END FROM "legacy";"#
      ), "\(migration.sql)")
    #expect(migration.summary == [
      #"rebuild table "legacy", copying every row, because it becomes STRICT, column "id" changes primary key from PRIMARY KEY to PRIMARY KEY AUTOINCREMENT, column "name" changes type from VARCHAR(40) to TEXT, column "createdAt" changes type from DATETIME to TEXT, column "createdAt" changes default from CURRENT_TIMESTAMP to none; fails, changing nothing and naming the row, if a value of "name" does not convert to TEXT exactly, or a value of "createdAt" does not convert to TEXT exactly, or a value of "createdAt" is not one the model reads as Date"#
    ])
  }

  @Test func aColumnOrTableTheMigrationsLackIsAnErrorAtTheModel() throws {
    let models = """
      import Strata
      // @Table("legacy")
      // @Unmanaged
      struct Legacy: Table, Identifiable {
        let id: Int
        var nickname: String?
      }
      // @Unmanaged
      struct Ghost: Table {
        var name: String
      }
      """
    do {
      _ = try Self.plan(models, migrations: [Self.legacyTable])
      Issue.record("the plan ignored what the unmanaged models read")
    } catch let error as DiagnosticsError {
      let messages = error.diagnostics.map(\.description)
      #expect(messages.contains { $0.hasPrefix("Models.swift:6:") && $0.contains(#"has no column "nickname""#) }, "\(messages)")
      #expect(messages.contains { $0.hasPrefix("Models.swift:9:") && $0.contains(#"no migration creates the table or view "ghosts""#) }, "\(messages)")
    }
  }

  @Test func theDriftCheckWarnsAtTheModel() throws {
    let models = """
      import Strata
      // @Table("legacy")
      // @Unmanaged
      struct Legacy: Table, Identifiable {
        let id: Int
        var nickname: String?
      }
      """
    let warnings = try MigrationDrift.warnings(
      models: try Generator(sources: [("Models.swift", models)]).models(),
      migrations: MigrationFiles(directory: "Migrations", files: [("0001_legacy", Self.legacyTable)]))
    #expect(warnings.map(\.description) == [
      #"Models.swift:6:7: warning: 'Legacy' is // @Unmanaged, but the table "legacy" the migrations make has no column "nickname"; add it in a hand-written migration, or remove the property"#
    ])
  }

  @Test func aSchemaFileSaysUnmanaged() throws {
    let schema = """
      table Legacy named "legacy" unmanaged {
        id    Int
        name  Text?
      }
      """
    let files = MigrationFiles(directory: "Migrations", files: [("0001_legacy", Self.legacyTable)])
    let models = try Generator(sources: [("Schema.strata", schema)]).models()
    #expect(models.tables.map(\.isUnmanaged) == [true])
    #expect(try MigrationPlanner.plan(models: models, migrations: files, moduleName: "App").newMigration == nil)
  }

  /// Schema annotations on an unmanaged model describe its table for the day it is taken over;
  /// a rename is a change the planner makes to no unmanaged table.
  @Test func schemaAnnotationsDescribeAnUnmanagedTableAndRenamesAreWarnings() throws {
    let models = try Generator(sources: [(
      "Models.swift",
      """
      // @Table("legacy")
      // @Unmanaged
      // @Check(raw: "id > 0")
      struct Legacy: Table, Identifiable {
        let id: Int
        // @Index
        // @Renamed(from: "title")
        var name: String?
      }
      """
    )]).models()
    #expect(models.warnings.map(\.description) == [
      "Models.swift:7:6: warning: @Renamed does nothing on 'Legacy', which is // @Unmanaged: its migrations alone make its table; rename it in a hand-written migration"
    ])
  }

  /// A view is read like a table; an unmanaged model may name one.
  @Test func anUnmanagedModelMayReadAView() throws {
    let view = Self.legacyTable + "\nCREATE VIEW legacyNames AS SELECT id, upper(name) AS shout FROM legacy;"
    let models = """
      // @Table("legacy")
      // @Unmanaged
      struct Legacy: Table, Identifiable {
        let id: Int
        var name: String?
      }
      // @Table("legacyNames")
      // @Unmanaged
      struct LegacyName: Table {
        // @Column("id")
        var legacyID: Int?
        var shout: String?
      }
      """
    #expect(try Self.plan(models, migrations: [view]).newMigration == nil)
    do {
      _ = try Self.plan(models.replacingOccurrences(of: "var shout", with: "var whisper"), migrations: [view])
      Issue.record("a column the view lacks was accepted")
    } catch let error as DiagnosticsError {
      #expect(error.diagnostics.map(\.message) == [
        #"'LegacyName' is // @Unmanaged, but the view "legacyNames" the migrations make has no column "whisper"; add it in a hand-written migration, or remove the property"#
      ])
    }
  }
}
