import Foundation
import Strata
import StrataSchema
import Testing

/// The migrations the generator writes, run by GRDB's own migrator on a database an app has
/// filled: a rebuild of a parent table whose children reference it with `ON DELETE CASCADE`
/// deletes no child, because GRDB turns foreign keys off around each migration
/// (`foreignKeyChecks: .deferred`, its default) and checks them before committing.
@Suite struct RebuildOnGRDBTests {
  static let models = """
    struct Parent: Table {
      let id: Int
      var name = ""
    }
    struct Child: Table {
      let id: Int
      let parentID: Parent.ID
    }
    """

  /// The migration the generator writes for `source`, after `previous`.
  func plan(_ source: String, after previous: [Strata.Migration], in directory: URL) throws -> Strata.Migration {
    for migration in previous {
      try migration.sql.write(to: directory.appendingPathComponent(migration.name + ".sql"), atomically: true, encoding: .utf8)
    }
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", source)]).models(),
      migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App")
    let migration = try #require(plan.newMigration)
    return Strata.Migration(name: String(migration.fileName.dropLast(4)), sql: migration.sql)
  }

  @Test func rebuildingAParentKeepsItsThousandChildren() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-grdb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try plan(Self.models, after: [], in: directory)

    let database = try openDatabase(.file(directory.appendingPathComponent("app.sqlite").path))
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations([first])
    try migrator.migrate(database)
    let foreignKeysOn = try database.write { db in
      try db.execute(sql: "INSERT INTO parents (id, name) VALUES (1, 'one')")
      for id in 1...1000 { try db.execute(sql: "INSERT INTO children (id, parentID) VALUES (?, 1)", arguments: [id]) }
      return try Bool.fetchOne(db, sql: "PRAGMA foreign_keys")
    }
    // Foreign keys are on in the app's connection: a delete would cascade.
    #expect(foreignKeysOn == true)

    let collated = Self.models.replacingOccurrences(of: "var name = \"\"", with: "// @Column(collate: .nocase)\n  var name = \"\"")
    let second = try plan(collated, after: [first], in: directory)
    #expect(second.sql.contains(#"DROP TABLE "parents";"#))
    var next = DatabaseMigrator()
    try next.registerMigrations([first, second])
    try next.migrate(database)
    let (children, parentSQL, stillOn) = try database.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM children WHERE parentID = 1"),
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'parents'"),
        try Bool.fetchOne(db, sql: "PRAGMA foreign_keys")
      )
    }
    #expect(children == 1000)
    #expect(parentSQL?.contains("COLLATE NOCASE") == true)
    #expect(stillOn == true)
  }

  /// Why it matters: the same migration run with foreign keys on (GRDB's `.immediate`) cascades
  /// the drop of the old parent table to every child. Strata registers its migrations with
  /// GRDB's default, so this cannot happen to them.
  @Test func withForeignKeysOnTheSameRebuildWouldDeleteEveryChild() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-grdb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try plan(Self.models, after: [], in: directory)
    let second = try plan(
      Self.models.replacingOccurrences(of: "var name = \"\"", with: "// @Column(collate: .nocase)\n  var name = \"\""),
      after: [first], in: directory)
    let database = try openDatabase(.inMemory)
    var migrator = DatabaseMigrator()
    migrator.registerMigration(first.name, foreignKeyChecks: .immediate) { try $0.execute(sql: first.sql) }
    try migrator.migrate(database)
    try database.write { db in
      try db.execute(sql: "INSERT INTO parents (id, name) VALUES (1, 'one')")
      for id in 1...10 { try db.execute(sql: "INSERT INTO children (id, parentID) VALUES (?, 1)", arguments: [id]) }
    }
    migrator.registerMigration(second.name, foreignKeyChecks: .immediate) { try $0.execute(sql: second.sql) }
    try migrator.migrate(database)
    #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM children") } == 0)
  }
}
