import Foundation
import Testing

@testable import StrataSchema

/// The build plugin's check that the migrations still produce the models' schema.
@Suite struct MigrationDriftTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-drift-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func drift(_ source: String) throws -> [String] {
    let models = try Generator(sources: [("Models.swift", source)]).models()
    let files = try MigrationFiles(directory: directory.path, root: nil)
    return try MigrationDrift.warnings(models: models, migrations: files).map { diagnostic in
      "\((diagnostic.location.path as NSString).lastPathComponent):\(diagnostic.location.line): \(diagnostic.message)"
    }
  }

  /// Writes the migration the models ask for, as `generate-migrations` would.
  func generate(_ source: String) throws {
    let models = try Generator(sources: [("Models.swift", source)]).models()
    let plan = try MigrationPlanner.plan(models: models, migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App")
    let migration = try #require(plan.newMigration)
    try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
  }

  static let notes = "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n"
  static let notesWithColor = "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var color = 0\n}\n"

  @Test func modelsWithoutMigrationsWarnAtTheModel() throws {
    let warnings = try drift(Self.notes)
    #expect(warnings.count == 1)
    #expect(warnings.first?.hasPrefix("Models.swift:1: the migrations do not match 'Note' yet (the next migration would create table \"notes\")") == true, "\(warnings)")
    #expect(warnings.first?.contains("run `swift package --allow-writing-to-package-directory generate-migrations`") == true)
  }

  @Test func matchingMigrationsAreQuiet() throws {
    try generate(Self.notes)
    #expect(try drift(Self.notes) == [])
  }

  @Test func aNewColumnWarnsAtItsModel() throws {
    try generate(Self.notes)
    let warnings = try drift("struct Other: Table {\n  let id: Int\n}\n" + Self.notesWithColor)
    #expect(warnings.count == 2)
    #expect(warnings.contains { $0.hasPrefix("Models.swift:4: the migrations do not match 'Note' yet (the next migration would add column \"color\" to \"notes\")") }, "\(warnings)")
    #expect(warnings.contains { $0.hasPrefix("Models.swift:1: the migrations do not match 'Other' yet (the next migration would create table \"others\")") }, "\(warnings)")
    try generate(Self.notesWithColor)
    #expect(try drift(Self.notesWithColor) == [])
  }

  @Test func aTableNoModelDeclaresWarnsAtTheMigrationThatCreatedIt() throws {
    try generate(Self.notes)
    let warnings = try drift("struct Tag: Table {\n  let id: Int\n}\n")
    #expect(warnings.contains { $0.hasPrefix("0001_") && $0.contains(":1: no model declares this table any more (the next migration would drop table \"notes\", deleting its rows); run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss` (it deletes data)") }, "\(warnings)")
  }

  @Test func aDroppedPropertySaysTheCommandThatDropsIt() throws {
    try generate(Self.notesWithColor)
    #expect(
      try drift(Self.notes) == [
        "Models.swift:1: the migrations do not match 'Note' yet (the next migration would drop column \"color\" of \"notes\", deleting its values); run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss` (it deletes data), or the app fails when it reads or writes this table"
      ])
  }

  @Test func aFailingMigrationIsAnErrorAtItsStatement() throws {
    try "CREATE TABLE a (x);\nALTR TABLE a ADD y;\n".write(to: directory.appendingPathComponent("0001_a.sql"), atomically: true, encoding: .utf8)
    #expect(throws: DiagnosticsError.self) { try drift(Self.notes) }
    do {
      _ = try drift(Self.notes)
    } catch let error as DiagnosticsError {
      #expect(error.diagnostics.map(\.location.line) == [2])
      #expect(error.diagnostics.first?.message.contains("near \"ALTR\"") == true)
    }
  }

  /// With a compatibility window, what the migrations keep for older schemas is expected: a
  /// build warns about nothing until the window moves, and then says what the contract does.
  @Test func whatTheWindowKeepsIsNoDrift() throws {
    let renamed = Self.notes.replacingOccurrences(of: "var body = \"\"", with: "// @Renamed(from: \"body\")\n  var text = \"\"")
    try generate(Self.notes)
    let window = CompatibilityWindow(start: 1, releases: [:])
    let models = try Generator(sources: [("Models.swift", renamed)]).models()
    let plan = try MigrationPlanner.plan(
      models: models, migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App", window: window)
    let migration = try #require(plan.newMigration)
    try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
    let files = try MigrationFiles(directory: directory.path, root: nil)
    #expect(try MigrationDrift.warnings(models: models, migrations: files, window: window).isEmpty)
    let moved = try MigrationDrift.warnings(models: models, migrations: files, window: CompatibilityWindow(start: 2, releases: [:]))
    #expect(moved.map(\.message) == [
      #"the migrations do not match 'Note' yet (the next migration would drop the triggers that kept "notes"."body" in step for older app versions (migration 0002 kept it; no schema in the window reads it now), and the column, whose values "text" holds); run `swift package --allow-writing-to-package-directory generate-migrations`, or the app fails when it reads or writes this table"#
    ])
  }
}
