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
