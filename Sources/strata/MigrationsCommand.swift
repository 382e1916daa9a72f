import Foundation
import StrataSchema

/// `strata migrations`: the `generate-migrations` command plugin's command.
///
/// Writes the next migration, the schema snapshot, its diagram and the checksum manifest; with
/// `--check`, writes nothing and exits 0 when all of them are current, 2 when the models need a
/// migration or a file is out of date, and 1 on errors.
struct MigrationsCommand {
  let migrations: String
  let snapshot: String?
  let diagram: String?
  let checksums: String?
  let check: Bool
  let allowDataLoss: Bool
  let acceptEdits: Bool
  let root: String?
  let moduleName: String
  let inputs: [String]

  /// The exit status of `--check` when the models need a migration or a file is out of date.
  static let outOfDate: Int32 = 2

  init(arguments: inout CommandLineArguments) throws {
    try arguments.validate()
    migrations = try arguments.required("--migrations")
    snapshot = arguments.value("--snapshot")
    diagram = arguments.value("--diagram")
    checksums = arguments.value("--checksums")
    check = arguments.flag("--check")
    allowDataLoss = arguments.flag("--allow-data-loss")
    acceptEdits = arguments.flag("--accept-edits")
    root = arguments.value("--root")
    moduleName = arguments.value("--module") ?? root.map { ($0 as NSString).lastPathComponent } ?? "the module"
    inputs = arguments.inputs
  }

  func run() throws -> Int32 {
    let models = try Generator(inputs: inputs, root: root).models()
    report(models.warnings)
    let files = try MigrationFiles(directory: migrations, root: root)
    report(files.warnings)
    if models.tables.isEmpty, files.files.isEmpty {
      print("\(moduleName): no tables and no migrations; nothing to do.")
      return 0
    }

    // Edited migrations stop everything: planning on top of them would hide the problem.
    let recorded = checksums.flatMap { FileManager.default.contents(atPath: $0) }
      .map { ChecksumManifest(text: String(decoding: $0, as: UTF8.self)) }
    let comparison = recorded?.compare(with: files.files, directory: migrations)
    if let errors = comparison?.errors, !errors.isEmpty, check || !acceptEdits {
      throw DiagnosticsError(errors)
    }

    let plan = try MigrationPlanner.plan(
      models: models, migrations: files, moduleName: moduleName, allowDataLoss: allowDataLoss)
    let diagramText = SchemaDiagram.markdown(plan.schema, moduleName: moduleName)

    if check {
      var problems: [String] = []
      if let migration = plan.newMigration {
        problems += migration.summary.map { "the models ask for a change the migrations lack: \($0)" }
      }
      if let snapshot, !Self.holds(snapshot, plan.snapshot) {
        problems.append("the schema snapshot \(SourceFiles.relative(snapshot, to: root)) is out of date")
      }
      if let diagram, !Self.holds(diagram, diagramText) {
        problems.append("the schema diagram \(SourceFiles.relative(diagram, to: root)) is out of date")
      }
      if let checksums, recorded == nil || comparison?.isStale == true {
        problems.append("the migration checksums \(SourceFiles.relative(checksums, to: root)) are out of date")
      }
      if problems.isEmpty {
        print("\(moduleName): the migrations match the models.")
        return 0
      }
      for problem in problems {
        FileHandle.standardError.write(Data("\(migrations): error: \(problem)\n".utf8))
      }
      FileHandle.standardError.write(
        Data("\(migrations): note: run `swift package --allow-writing-to-package-directory generate-migrations`\n".utf8))
      return Self.outOfDate
    }

    if let migration = plan.newMigration {
      let path = (migrations as NSString).appendingPathComponent(migration.fileName)
      try AtomicFile.write(migration.sql, to: path)
      print("\(moduleName): wrote \(SourceFiles.relative(path, to: root)):")
      for line in migration.summary { print("  - \(line)") }
    } else {
      print("\(moduleName): the schema is up to date; no migration written.")
    }
    if let snapshot, try AtomicFile.write(plan.snapshot, to: snapshot) {
      print("\(moduleName): updated the schema snapshot \(snapshot).")
    }
    if let diagram, try AtomicFile.write(diagramText, to: diagram) {
      print("\(moduleName): updated the schema diagram \(diagram).")
    }
    if let checksums {
      let manifest = ChecksumManifest(files: try MigrationFiles(directory: migrations, root: root).files)
      if try AtomicFile.write(manifest.text(moduleName: moduleName), to: checksums) {
        print("\(moduleName): updated the migration checksums \(checksums).")
      }
    }
    return 0
  }

  /// Whether the file at `path` holds exactly `text`.
  private static func holds(_ path: String, _ text: String) -> Bool {
    FileManager.default.contents(atPath: path) == Data(text.utf8)
  }
}
