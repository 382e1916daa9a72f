import Foundation
import Testing

@testable import StrataSchema

/// A module's models split by database: the main one, and each attached one with its own
/// migrations folder and files beside the main ones.
@Suite struct ModuleDatabaseTests {
  static let source = """
    struct Game: Table, Identifiable {
      let id: UUID
      var title = ""
    }
    // @Table(schema: "cache")
    struct Page: Table, Identifiable {
      let id: Int
      var url = ""
    }
    // @Table("entries", schema: "archive")
    struct Entry: Table, Identifiable {
      let id: Int
      var body = ""
    }
    """

  @Test func eachDatabaseHasItsTablesAndItsFiles() throws {
    let models = try Generator(sources: [("Models.swift", Self.source)]).models()
    let databases = ModuleDatabase.all(of: models, migrations: nil)
    #expect(databases.map(\.schemaName) == [nil, "archive", "cache"])
    #expect(databases.map { $0.models.schema.tables.map(\.name) } == [["games"], ["entries"], ["pages"]])
    #expect(databases.map { $0.migrationsDirectory("Sources/App/Migrations") } == [
      "Sources/App/Migrations", "Sources/App/Migrations/archive", "Sources/App/Migrations/cache",
    ])
    #expect(databases.map { $0.file(besides: "schemas/App.sql") } == ["schemas/App.sql", "schemas/App.archive.sql", "schemas/App.cache.sql"])
    #expect(databases.map { $0.displayName(module: "App") } == ["App", "App (archive)", "App (cache)"])
    // Each database's first migration creates its own tables only.
    let plans = try databases.map { database in
      try MigrationPlanner.plan(
        models: database.models, migrations: MigrationFiles(directory: "Migrations", files: []),
        moduleName: database.displayName(module: "App"), allowDataLoss: false)
    }
    #expect(plans.map { $0.newMigration?.summary ?? [] } == [[#"create table "games""#], [#"create table "entries""#], [#"create table "pages""#]])
  }

  /// StructuredQueries' models may name one table in the main database and in an attached one
  /// (a local copy of the server's players, say): each database has its tables, its indexes and
  /// its creation order, and its first migration makes its own.
  @Test func theMainAndAnAttachedDatabaseMayEachHaveATableOfOneName() throws {
    let source = """
      struct Team: Table, Identifiable {
        let id: Int
        var name = ""
      }
      struct Player: Table, Identifiable {
        let id: Int
        var teamID: Team.ID
        var name = ""
      }
      // @Table("players", schema: "cache")
      struct CachedPlayer: Table, Identifiable {
        let id: Int
        var teamID: CachedTeam.ID
        var name = ""
        var fetchedAt = 0.0
      }
      // @Table("teams", schema: "cache")
      struct CachedTeam: Table, Identifiable {
        let id: Int
      }
      """
    let models = try Generator(sources: [("Models.swift", source)]).models()
    #expect(models.schema.tables.map(\.name) == ["teams", "players"])
    #expect(models.attachedSchemas["cache"]?.tables.map(\.name) == ["teams", "players"])
    #expect(models.attachedSchemas["cache"]?.tables.last?.columns.map(\.name) == ["id", "teamID", "name", "fetchedAt"])
    let plans = try ModuleDatabase.all(of: models, migrations: nil).map { database in
      try MigrationPlanner.plan(
        models: database.models, migrations: MigrationFiles(directory: "Migrations", files: []),
        moduleName: database.displayName(module: "App"), allowDataLoss: false)
    }
    let sql = plans.map { $0.newMigration?.sql ?? "" }
    #expect(sql[0].contains(#"CREATE INDEX "index_players_on_teamID" ON "players"("teamID");"#))
    #expect(sql[1].contains(#"CREATE INDEX "index_players_on_teamID" ON "players"("teamID");"#))
    #expect(sql[1].contains(#""fetchedAt" REAL NOT NULL"#))
    #expect(!sql[0].contains("fetchedAt"))

    // A change to the cache's "players" that rebuilds it is the cache's migration alone, made
    // from the cache's columns.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-same-name-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let main = directory.appendingPathComponent("Migrations").path
    for (database, plan) in zip(ModuleDatabase.all(of: models, migrations: nil), plans) {
      let folder = database.migrationsDirectory(main)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try plan.newMigration!.sql.write(toFile: (folder as NSString).appendingPathComponent(plan.newMigration!.fileName), atomically: true, encoding: .utf8)
    }
    let changed = try Generator(sources: [("Models.swift", source.replacingOccurrences(of: "var fetchedAt = 0.0", with: "var fetchedAt: Double?"))]).models()
    let next = try ModuleDatabase.all(of: changed, migrations: main).map { database in
      try MigrationPlanner.plan(
        models: database.models, migrations: MigrationFiles(directory: database.migrationsDirectory(main), root: nil),
        moduleName: database.displayName(module: "App"), allowDataLoss: false)
    }
    #expect(next[0].newMigration == nil)
    #expect(next[1].newMigration?.fileName == "0002_rebuild_players.sql")
    #expect(next[1].newMigration?.sql.contains(#"INSERT INTO "strata_new_players" ("id", "teamID", "name", "fetchedAt") SELECT "id", "teamID", "name", "fetchedAt" FROM "players";"#) == true)
  }

  @Test func aFolderWithoutModelsIsStillADatabase() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-databases-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("old_cache"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("not a name"), withIntermediateDirectories: true)
    let models = try Generator(sources: [("Models.swift", "struct Game: Table { let id: Int }")]).models()
    #expect(ModuleDatabase.all(of: models, migrations: directory.path).map(\.schemaName) == [nil, "old_cache"])
  }

  @Test func generatedCodeNamesTheDatabase() throws {
    let code = try Generator(sources: [("Models.swift", Self.source)]).conformances()
    #expect(code.contains(#"  static let tableName = "pages"\#n  static var schemaName: String? { "cache" }\#n"#))
    #expect(!code.contains(#"static var schemaName: String? { nil }"#))
  }
}
