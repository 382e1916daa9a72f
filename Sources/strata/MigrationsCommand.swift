import Foundation
import StrataSchema

/// `strata migrations`: the `generate-migrations` command plugin's command.
struct MigrationsCommand {
  let migrations: String
  let snapshot: String?
  let check: Bool
  let allowDataLoss: Bool
  let root: String?
  let moduleName: String
  let inputs: [String]

  init(arguments: inout CommandLineArguments) throws {
    try arguments.validate()
    migrations = try arguments.required("--migrations")
    snapshot = arguments.value("--snapshot")
    check = arguments.flag("--check")
    allowDataLoss = arguments.flag("--allow-data-loss")
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
    let plan = try MigrationPlanner.plan(
      models: models, migrations: files, moduleName: moduleName, allowDataLoss: allowDataLoss)
    let snapshotIsCurrent = snapshot.map { FileManager.default.contents(atPath: $0) == Data(plan.snapshot.utf8) } ?? true

    if check {
      var problems: [String] = []
      if let migration = plan.newMigration {
        problems += migration.summary.map { "the models ask for a change the migrations lack: \($0)" }
      }
      if !snapshotIsCurrent, let snapshot {
        problems.append("the schema snapshot \(SourceFiles.relative(snapshot, to: root)) is out of date")
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
      return 1
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
    return 0
  }
}
