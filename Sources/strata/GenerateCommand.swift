import ArgumentParser
import Foundation
import StrataSchema

/// `strata generate`: the build-tool plugin's command.
struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Write the models' conformances and the registry of the migrations to embed.",
    discussion: """
      Every migration is run on a scratch database as GRDB's migrator runs it at launch, so a \
      migration that would fail there fails here, at its statement's line. When the target has \
      a Migrations folder, a model whose table the migrations do not produce is a warning at \
      its line.
      """)

  @OptionGroup var options: ModuleOptions

  @Option(help: ArgumentHelp("The Swift file to write the conformances to.", valueName: "file"))
  var output: String?

  @Option(
    help: ArgumentHelp(
      "The module's checked-in conformances (written by `migrations --code`): checked against the models instead of writing --output.",
      valueName: "file"))
  var checkedIn: String?

  @Option(
    help: ArgumentHelp(
      "The Swift file to write the models of the schema files (*.strata) to; required when there are any.",
      valueName: "file"))
  var schemaModelsOutput: String?

  @Option(help: ArgumentHelp("The folder of migration files to embed.", valueName: "dir"))
  var migrations: String?

  @Option(help: ArgumentHelp("The Swift file to write the migration registry to.", valueName: "file"))
  var registryOutput: String?

  func validate() throws {
    if (output == nil) == (checkedIn == nil) {
      throw ValidationError("give --output, or --checked-in for a module whose generated code is checked in")
    }
    if (migrations == nil) != (registryOutput == nil) {
      throw ValidationError("--migrations and --registry-output go together")
    }
  }

  func run() throws {
    try reportingFailures {
      let checkedInCode = checkedIn.map(CheckedInCode.init(conformances:))
      var generator = try Generator(inputs: options.inputs, root: options.root, excluding: checkedInCode)
      generator.runtime = options.runtime
      let models = try generator.models()
      report(models.warnings)
      let code = generator.conformances(of: models)
      if let checkedInCode {
        let stale = checkedInCode.contents(for: generator, models: models)
          .filter { FileManager.default.contents(atPath: $0.path) != Data($0.text.utf8) }
        if !stale.isEmpty {
          throw DiagnosticsError(
            stale.map { file in
              Diagnostic(
                .error,
                "this generated file does not match the models; run `swift package --allow-writing-to-package-directory generate-migrations` to update it",
                at: SourceLocation(path: file.path, line: 1, column: 1))
            })
        }
      }
      let schemaModels = checkedIn == nil ? generator.schemaFileModels() : nil
      if schemaModels != nil, schemaModelsOutput == nil {
        throw InputError("schema files (*.strata) need --schema-models-output for the models they declare")
      }
      var registry: String?
      var histories: RunMigrationHistories?
      // (`validate()` makes --migrations and --registry-output go together.)
      if let migrations, let registryOutput {
        // The plugin's work folder remembers the histories that ran statement by statement.
        var runHistories = RunMigrationHistories(
          path: ((registryOutput as NSString).deletingLastPathComponent as NSString).appendingPathComponent(".strata-run-migrations"),
          tool: Self.toolIdentity)
        // The main database's migrations, and each attached database's in its own folder.
        var main: MigrationFiles?
        var attached: [(name: String, files: MigrationFiles)] = []
        for database in ModuleDatabase.all(of: models, migrations: migrations) {
          let directory = database.migrationsDirectory(migrations)
          let files = try MigrationFiles(directory: directory, root: options.root)
          report(files.warnings)
          // A target without a Migrations folder has no migrations to check and has not adopted
          // Strata's (its tables may be made some other way), so there is nothing to compare.
          var isDirectory: ObjCBool = false
          // A PostgreSQL target's migrations are checked by `generate-migrations`, which starts a
          // server: a build must not need one.
          if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            try MigrationSettings.read(migrations: migrations).dialect == .sqlite
          {
            report(try MigrationDrift.warnings(models: database.models, migrations: files, histories: &runHistories))
          }
          if let name = database.schemaName { attached.append((name, files)) } else { main = files }
        }
        registry = main?.registry(attached: attached, runtime: options.runtime)
        histories = runHistories
      }
      // Both outputs are computed before either is written, so a failure leaves both untouched.
      if let output { try AtomicFile.write(code, to: output) }
      if let schemaModelsOutput { try AtomicFile.write(schemaModels ?? "", to: schemaModelsOutput) }
      if let registry, let registryOutput {
        try AtomicFile.write(registry, to: registryOutput)
      }
      try histories?.save()
      return 0
    }
  }

  /// This executable as it is on disk: a rebuilt tool runs every migration again.
  static var toolIdentity: String {
    let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(path) \((attributes[.size] as? NSNumber)?.intValue ?? 0) \(modified)"
  }
}
