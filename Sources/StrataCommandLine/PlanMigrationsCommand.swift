import ArgumentParser
import Foundation
import StrataSchema

/// `strata migrations [plan]`: the `generate-migrations` command plugin's command.
///
/// Writes the next migration, the schema snapshot, its diagram and the checksum manifest; with
/// `--check`, writes nothing and exits 0 when all of them are current, 2 when the models need a
/// migration or a file is out of date, and 1 on errors.
package struct PlanMigrationsCommand: ParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Add a migration for what the models ask for that the migrations lack.",
    discussion: """
      Also keeps the schema snapshot, its diagram and the migrations' checksums up to date. \
      With --check, writes nothing and exits 0 when everything is current, 2 when a migration \
      or a file is missing or stale, and 1 on errors.
      """)

  @OptionGroup var options: ModuleOptions

  @Option(help: ArgumentHelp("Where the migration files are.", valueName: "dir"))
  var migrations: String

  @Option(help: ArgumentHelp("The schema snapshot to keep up to date.", valueName: "file"))
  var snapshot: String?

  @Option(help: ArgumentHelp("The snapshot's entity-relationship diagram (Markdown, Mermaid).", valueName: "file"))
  var diagram: String?

  @Option(help: ArgumentHelp("The migrations' checksum manifest.", valueName: "file"))
  var checksums: String?

  @Option(
    help: ArgumentHelp(
      "The module's conformances, to write into the module and check in (the build plugin then checks it instead of generating it).",
      valueName: "file"))
  var code: String?

  @Flag(help: "Write nothing; exit 2 when a migration or a file is missing or out of date.")
  var check = false

  @Flag(help: "Let the migration drop tables and columns, deleting their data.")
  var allowDataLoss = false

  @Flag(help: "Accept edited migrations into the checksums.")
  var acceptEdits = false

  @Option(
    help: ArgumentHelp(
      "Record in strata.json that a release ships with the latest migration, for a compatibility window of releases (\"compatibleWith\": {\"releases\": 2}).",
      valueName: "name"))
  var markRelease: String?

  @Option(
    help: ArgumentHelp(
      "Write a data migration in Swift as the next migration (Migrations/NNNN_<description>.swift), with the tables as the migrations leave them, frozen.",
      valueName: "description"))
  var data: String?

  /// The exit status of `--check` when the models need a migration or a file is out of date.
  static let outOfDate: Int32 = 2

  var moduleName: String { options.moduleName }

  package init() {}

  package func validate() throws {
    if options.inputs.isEmpty { throw ValidationError("give the model files, or the directories that hold them") }
    if check, markRelease != nil { throw ValidationError("--mark-release writes strata.json, which --check does not") }
    if check, data != nil { throw ValidationError("--data writes a migration, which --check does not") }
    if let markRelease, markRelease.isEmpty || markRelease.contains(where: \.isNewline) {
      throw ValidationError("--mark-release takes a release's name, such as 2.3")
    }
  }

  package func run() throws {
    try reportingFailures(plan)
  }

  private func plan() throws -> Int32 {
    let checkedInCode = code.map(CheckedInCode.init(conformances:))
    var generator = try Generator(inputs: options.inputs, root: options.root, excluding: checkedInCode)
    generator.runtime = options.runtime
    let settings = try MigrationSettings.read(migrations: migrations)
    let models = try generator.models(for: settings.dialect)
    ToolOutput.report(models.warnings)
    // The main database first, then each attached one, each with its own files; the generated
    // code is the module's, written with the main database's.
    var status: Int32 = 0
    for database in ModuleDatabase.all(of: models, migrations: migrations) {
      let codeFiles = database.schemaName == nil ? checkedInCode?.contents(for: generator, models: models) ?? [] : []
      status = max(status, try plan(database, codeFiles: codeFiles, settings: settings))
    }
    if let markRelease, status == 0 { try mark(release: markRelease, settings: settings) }
    return status
  }

  /// Records that `release` ships with the latest migration of the main database.
  private func mark(release: String, settings: MigrationSettings) throws {
    let files = try MigrationFiles(directory: migrations, root: options.root)
    guard let latest = files.files.last else {
      throw InputError("there is no migration yet for release \(release) to ship with")
    }
    var settings = settings
    let number = latest.number
    if try settings.markRelease(release, at: number) {
      try AtomicFile.write(settings.text, to: MigrationSettings.path(migrations: migrations))
      print("\(moduleName): marked release \(release) at migration \(latest.name) in \(MigrationSettings.path(migrations: migrations)).")
    } else {
      print("\(moduleName): release \(release) is marked at migration \(latest.name) already.")
    }
  }

  /// Plans one database's next migration, and keeps its snapshot, diagram and checksums current.
  private func plan(_ database: ModuleDatabase, codeFiles: [(path: String, text: String)], settings: MigrationSettings) throws -> Int32 {
    let models = database.models
    let migrations = database.migrationsDirectory(self.migrations)
    let snapshot = self.snapshot.map(database.file(besides:))
    let diagram = self.diagram.map(database.file(besides:))
    let checksums = self.checksums.map(database.file(besides:))
    let moduleName = database.displayName(module: self.moduleName)
    let files = try MigrationFiles(directory: migrations, root: options.root)
    ToolOutput.report(files.warnings)
    // A target without tables and migrations (an executable that only uses a library's
    // models, say) has nothing to say.
    if models.tables.isEmpty, files.files.isEmpty { return 0 }

    // Edited migrations stop everything: planning on top of them would hide the problem.
    let recorded = checksums.flatMap { FileManager.default.contents(atPath: $0) }
      .map { ChecksumManifest(text: String(decoding: $0, as: UTF8.self)) }
    let comparison = recorded?.compare(with: files.files, directory: migrations)
    ToolOutput.report(comparison?.warnings ?? [])
    if let errors = comparison?.errors, !errors.isEmpty, check || !acceptEdits {
      throw DiagnosticsError(errors)
    }

    // The window's migration numbers are the main database's.
    let window =
      database.schemaName == nil
      ? try CompatibilityWindow.resolve(
        settings, files: files.files, at: SourceLocation(path: MigrationSettings.path(migrations: migrations), line: 1, column: 1))
      : nil
    let plan = try MigrationPlanner.plan(
      models: models, migrations: files, moduleName: moduleName, allowDataLoss: allowDataLoss,
      previousSnapshot: snapshot.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) },
      window: window)
    let diagramText = SchemaDiagram.markdown(plan.schema, moduleName: moduleName)
    for line in plan.pending { print("\(moduleName): \(line).") }

    if check {
      var problems: [String] = []
      if let migration = plan.newMigration {
        problems += migration.summary.map { "the models ask for a change the migrations lack: \($0)" }
      }
      if let snapshot, !Self.holds(snapshot, plan.snapshot) {
        problems.append("the schema snapshot \(snapshot) is out of date")
      }
      if let diagram, !Self.holds(diagram, diagramText) {
        problems.append("the schema diagram \(diagram) is out of date")
      }
      for file in codeFiles where !Self.holds(file.path, file.text) {
        problems.append("the generated code \(file.path) is out of date")
      }
      if let checksums, recorded == nil || comparison?.isStale == true {
        problems.append("the migration checksums \(checksums) are out of date")
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

    if let data, database.schemaName == nil {
      // A data migration reads and writes the schema the migrations make; one the models
      // change later would run on a schema it was not written for.
      if let migration = plan.newMigration {
        throw InputError(
          "the models ask for a change the migrations lack (\(migration.summary.joined(separator: "; "))): write that migration first (generate-migrations without --data), then the data migration")
      }
      let file = try DataMigrationFile.make(description: data, files: files, models: models, runtime: options.runtime)
      let path = (migrations as NSString).appendingPathComponent(file.name + ".swift")
      try AtomicFile.write(file.text, to: path)
      print("\(moduleName): wrote \(path): write the migration's work in its migrate(_:) function.")
    } else if let migration = plan.newMigration {
      let path = (migrations as NSString).appendingPathComponent(migration.fileName)
      try AtomicFile.write(migration.sql, to: path)
      print("\(moduleName): wrote \(path):")
      for line in migration.summary { print("  - \(line)") }
    } else {
      print("\(moduleName): the schema is up to date; no migration written.")
    }
    for file in codeFiles where try AtomicFile.write(file.text, to: file.path) {
      print("\(moduleName): updated the generated code \(file.path).")
    }
    if let snapshot, try AtomicFile.write(plan.snapshot, to: snapshot) {
      print("\(moduleName): updated the schema snapshot \(snapshot).")
    }
    if let diagram, try AtomicFile.write(diagramText, to: diagram) {
      print("\(moduleName): updated the schema diagram \(diagram).")
    }
    if let checksums {
      let manifest = ChecksumManifest(files: try MigrationFiles(directory: migrations, root: options.root).files)
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
