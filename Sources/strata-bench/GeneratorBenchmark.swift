import Foundation
import GRDB
import StrataSchema

/// Synthetic model files for the generator benchmark: `count` tables of eight columns, each
/// referencing the previous one, spread over files of 20 tables, with a selection per file;
/// with `addedColumn`, a ninth column in every table.
enum SyntheticModels {
  static func sources(tables count: Int, addedColumn: Bool = false) -> [(path: String, contents: String)] {
    stride(from: 0, to: count, by: 20).map { first in
      var text = "import Foundation\nimport Strata\n"
      for index in first..<min(first + 20, count) {
        let parent = index == 0 ? "" : "  let parentID: Model\(index - 1).ID?\n"
        text += """

          /// Synthetic table \(index).
          struct Model\(index): Table, Identifiable {
            let id: UUID
          \(parent)  var name = ""
            var count = 0
            var ratio = 0.5
            var isEnabled = true
            var createdAt: Date
            var notes: String?
            // @Column(as: JSONRepresentation<[String]>.self)
            var tags: [String] = []
          \(addedColumn ? "  var added = 0\n" : "")}

          """
      }
      text += """

        struct Summary\(first): Selection {
          let model: Model\(first)
          let total: Int
        }

        """
      return ("Models/File\(first / 20).swift", text)
    }
  }
}

extension SyntheticModels {
  /// The same tables and selections as one schema file.
  static func schemaFile(tables count: Int) -> (path: String, contents: String) {
    var text = "// Synthetic tables.\n"
    for index in 0..<count {
      let parent = index == 0 ? "" : "  parentID  Model\(index - 1).ID?\n"
      text += """

        table Model\(index) {
          id        UUID primary
        \(parent)  name      Text = ""
          count     Int = 0
          ratio     Double = 0.5
          isEnabled Bool = true
          createdAt Date
          notes     Text?
          tags      JSON<[String]> = []
        }

        """
      if index % 20 == 0 {
        text += "\nselection Summary\(index) { model Model\(index); total Int }\n"
      }
    }
    return ("Models/Schema.strata", text)
  }
}

func runGeneratorBenchmark(runs: Int, tables: Int) throws {
  let sources = SyntheticModels.sources(tables: tables)
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("strata-bench-migrations-\(ProcessInfo.processInfo.processIdentifier)")
  defer { try? FileManager.default.removeItem(at: directory) }
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

  let generator = Comparison(title: "generate code and migrations for \(tables) tables")
  var lines = 0
  generator.measure("Swift conformances (parse, translate, emit)", runs: runs) {
    try timed { lines = try Generator(sources: sources).conformances().split(separator: "\n").count }
  }
  generator.measure("first migration (read models, plan, check in SQLite, snapshot)", runs: runs) {
    try timed {
      let models = try Generator(sources: sources).models()
      let files = try MigrationFiles(directory: directory.path, root: nil)
      guard try MigrationPlanner.plan(models: models, migrations: files, moduleName: "Bench").newMigration != nil
      else { fatalError("no migration planned") }
    }
  }
  let models = try Generator(sources: sources).models()
  let first = try MigrationPlanner.plan(
    models: models, migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "Bench")
  try first.newMigration!.sql.write(
    to: directory.appendingPathComponent(first.newMigration!.fileName), atomically: true, encoding: .utf8)
  generator.measure("up-to-date check (read models, replay the migration, compare)", runs: runs) {
    try timed {
      let models = try Generator(sources: sources).models()
      let files = try MigrationFiles(directory: directory.path, root: nil)
      guard try MigrationPlanner.plan(models: models, migrations: files, moduleName: "Bench").newMigration == nil
      else { fatalError("migrations not up to date") }
    }
  }
  /// The build plugin's work: conformances, and the drift check on the migrations in
  /// `migrations`, with what earlier builds ran as the folder `histories` records it.
  func buildPlugin(_ sources: [(path: String, contents: String)], _ migrations: URL, histories: URL, saving: Bool = false) throws -> Duration {
    try timed {
      let generator = Generator(sources: sources)
      let models = try generator.models()
      let files = try MigrationFiles(directory: migrations.path, root: nil)
      // As the plugin writes them: a file for each model file, and the shared one.
      let split = generator.conformances(of: models, splittingFiles: sources.map(\.path), into: "StrataModels")
      lines = ([split.shared] + split.byFile.map(\.text)).reduce(0) { $0 + $1.split(separator: "\n").count }
      var run = RunMigrationHistories(path: histories.path, tool: "strata-bench")
      guard try MigrationDrift.warnings(models: models, migrations: files, histories: &run).isEmpty
      else { fatalError("the build plugin reports drift") }
      if saving { try run.save() }
    }
  }
  // The plugin's work folders, and a second history, beside the migrations' folder.
  let work = FileManager.default.temporaryDirectory
    .appendingPathComponent("strata-bench-plugin-\(ProcessInfo.processInfo.processIdentifier)")
  defer { try? FileManager.default.removeItem(at: work) }
  let noHistories = work.appendingPathComponent("no-histories")
  generator.measure("build plugin, migrations new (conformances, run every statement, drift check)", runs: runs) {
    try buildPlugin(sources, directory, histories: noHistories)
  }
  let histories = work.appendingPathComponent("histories")
  _ = try buildPlugin(sources, directory, histories: histories, saving: true)
  generator.measure("build plugin, models changed (conformances, migrations read at once, drift check)", runs: runs) {
    try buildPlugin(sources, directory, histories: histories)
  }
  // A model and its migration added to a history an earlier build ran: the plugin starts from
  // that build's database and runs the new file alone.
  let grown = work.appendingPathComponent("grown")
  try FileManager.default.createDirectory(at: grown, withIntermediateDirectories: true)
  try first.newMigration!.sql.write(to: grown.appendingPathComponent(first.newMigration!.fileName), atomically: true, encoding: .utf8)
  let grownHistories = work.appendingPathComponent("grown-histories")
  _ = try buildPlugin(sources, grown, histories: grownHistories, saving: true)
  let grownSources = SyntheticModels.sources(tables: tables + 1)
  let second = try MigrationPlanner.plan(
    models: try Generator(sources: grownSources).models(), migrations: try MigrationFiles(directory: grown.path, root: nil),
    moduleName: "Bench")
  try second.newMigration!.sql.write(to: grown.appendingPathComponent(second.newMigration!.fileName), atomically: true, encoding: .utf8)
  generator.measure("build plugin, a migration added (conformances, run the new one's statements, drift check)", runs: runs) {
    try buildPlugin(grownSources, grown, histories: grownHistories)
  }
  // A column added to every table, in a second migration: a history of `ALTER TABLE`s the
  // plugin never ran.
  let added = work.appendingPathComponent("added")
  try FileManager.default.createDirectory(at: added, withIntermediateDirectories: true)
  try first.newMigration!.sql.write(to: added.appendingPathComponent(first.newMigration!.fileName), atomically: true, encoding: .utf8)
  let addedSources = SyntheticModels.sources(tables: tables, addedColumn: true)
  let addition = try MigrationPlanner.plan(
    models: try Generator(sources: addedSources).models(), migrations: try MigrationFiles(directory: added.path, root: nil),
    moduleName: "Bench")
  try addition.newMigration!.sql.write(to: added.appendingPathComponent(addition.newMigration!.fileName), atomically: true, encoding: .utf8)
  generator.measure("build plugin, migrations new, a column then added to every table (run every statement)", runs: runs) {
    try buildPlugin(addedSources, added, histories: work.appendingPathComponent("added-histories"))
  }
  let database = directory.appendingPathComponent("import.sqlite").path
  let queue = try DatabaseQueue(path: database)
  try queue.write { try $0.execute(sql: first.newMigration!.sql) }
  try queue.close()
  var unmanaged = -1
  generator.measure("import that database (read, name, decide managed or not, verify no migration is due)", runs: runs) {
    try timed { unmanaged = try DatabaseImport(databaseAt: database, source: "bench.sqlite").unmanagedCount }
  }
  let schemaFile = SyntheticModels.schemaFile(tables: tables)
  var schemaLines = 0
  generator.measure("schema file: Swift models and conformances (parse, render, translate, emit)", runs: runs) {
    try timed {
      let generator = Generator(sources: [schemaFile])
      schemaLines = try generator.conformances().split(separator: "\n").count
        + (generator.schemaFileModels() ?? "").split(separator: "\n").count
    }
  }
  generator.report(baseline: nil, also: nil)
  print("(schema file: \(schemaFile.contents.split(separator: "\n").count) lines in, \(schemaLines) lines of generated Swift)")
  print("(import: \(unmanaged) of \(tables) tables unmanaged)")
  print("(\(sources.count) files, \(lines) lines of generated Swift)\n")
}
