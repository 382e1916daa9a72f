import Foundation

/// What a build asks of Strata for one module (`strata generate`, and the build plugin's tool):
/// the models' conformances, the registry of the migrations to embed, and the check that the
/// migrations run and produce the models.
///
/// Both tools fill in the same values from the same flags, so the work is written once.
public struct ModuleGeneration: Sendable {
  /// Model files (Swift or `.strata` schema files), or directories to search for them.
  public var inputs: [String]
  /// The module's directory; file names in generated headers are relative to it.
  public var root: String?
  /// The module the generated Swift imports.
  public var runtime: RuntimeModule
  /// The Swift file to write the conformances to.
  public var output: String?
  /// A folder to write each named Swift file's conformances to, in a file of their own
  /// (``perFileOutputName(of:)``), so that an edit of one model file changes one generated file;
  /// `output` then holds the rest. Nil puts everything in `output`.
  public var perFileOutputs: String?
  /// The module's checked-in conformances, checked against the models instead of writing
  /// `output`.
  public var checkedIn: String?
  /// The Swift file to write the models of the schema files to; required when there are any.
  public var schemaModelsOutput: String?
  /// The folder of migration files to embed and check.
  public var migrations: String?
  /// The Swift file to write the migration registry to.
  public var registryOutput: String?

  /// A request with every file named by the caller.
  public init(
    inputs: [String], root: String?, runtime: RuntimeModule, output: String?, perFileOutputs: String? = nil,
    checkedIn: String?, schemaModelsOutput: String?, migrations: String?, registryOutput: String?
  ) {
    self.inputs = inputs
    self.root = root
    self.runtime = runtime
    self.output = output
    self.perFileOutputs = perFileOutputs
    self.checkedIn = checkedIn
    self.schemaModelsOutput = schemaModelsOutput
    self.migrations = migrations
    self.registryOutput = registryOutput
  }

  /// What is wrong with the request, in the words of the command line's options, or nil.
  public var usageProblem: String? {
    if (output == nil) == (checkedIn == nil) {
      return "give --output, or --checked-in for a module whose generated code is checked in"
    }
    if perFileOutputs != nil, output == nil {
      return "--per-file-outputs goes with --output, which holds what is not in a model file's own"
    }
    if (migrations == nil) != (registryOutput == nil) {
      return "--migrations and --registry-output go together"
    }
    return nil
  }

  /// Writes the outputs, printing warnings on standard error; throws `DiagnosticsError` or
  /// `InputError` for input it cannot use, having written nothing.
  public func run() throws {
    let checkedInCode = checkedIn.map(CheckedInCode.init(conformances:))
    var generator = try Generator(inputs: inputs, root: root, excluding: checkedInCode)
    generator.runtime = runtime
    let models = try generator.models()
    ToolOutput.report(models.warnings)
    let split = try perFileOutputs.map { directory in
      generator.conformances(of: models, splittingFiles: try Self.splitFiles(inputs), into: directory)
    }
    let code = split?.shared ?? generator.conformances(of: models)
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
    // (`usageProblem` makes --migrations and --registry-output go together.)
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
        let files = try MigrationFiles(directory: directory, root: root)
        ToolOutput.report(files.warnings)
        // A target without a Migrations folder has no migrations to check and has not adopted
        // Strata's (its tables may be made some other way), so there is nothing to compare.
        var isDirectory: ObjCBool = false
        // A PostgreSQL target's migrations are checked by `generate-migrations`, which starts a
        // server: a build must not need one.
        let settings = try MigrationSettings.read(migrations: migrations)
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue, settings.dialect == .sqlite {
          // The window's migration numbers are the main database's.
          let window =
            database.schemaName == nil
            ? try CompatibilityWindow.resolve(
              settings, files: files.files, at: SourceLocation(path: MigrationSettings.path(migrations: migrations), line: 1, column: 1))
            : nil
          ToolOutput.report(try MigrationDrift.warnings(models: database.models, migrations: files, histories: &runHistories, window: window))
        }
        if let name = database.schemaName { attached.append((name, files)) } else { main = files }
      }
      let releases = try MigrationSettings.read(migrations: migrations).releases
      registry = try main?.registry(attached: attached, runtime: runtime, releasedThrough: releases.map(\.migration).max())
      histories = runHistories
    }
    // Every output is computed before any is written, so a failure leaves them all untouched.
    if let output { try AtomicFile.write(code, to: output) }
    for file in split?.byFile ?? [] { try AtomicFile.write(file.text, to: file.path) }
    if let schemaModelsOutput { try AtomicFile.write(schemaModels ?? "", to: schemaModelsOutput) }
    if let registry, let registryOutput {
      try AtomicFile.write(registry, to: registryOutput)
    }
    try histories?.save()
  }

  /// The name of the file that holds the conformances of the models `file` declares, in the
  /// folder `perFileOutputs` names. (The build plugin, which cannot link this module, declares
  /// the same names.)
  public static func perFileOutputName(of file: String) -> String {
    "StrataModels+" + (file as NSString).lastPathComponent
  }

  /// The inputs that get a generated file of their own: each one named as a Swift file (not found
  /// in a named directory). Every one gets it, a file of no models too, since the build compiles
  /// every file it was told to expect.
  ///
  /// - Throws: ``InputError`` for two of them with one name, whose outputs would be one file.
  static func splitFiles(_ inputs: [String]) throws -> [String] {
    var seen: [String: String] = [:]
    var files: [String] = []
    for input in inputs where input.hasSuffix(".swift") {
      let name = perFileOutputName(of: input)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue { continue }
      if let other = seen[name], other != input {
        throw InputError("\(other) and \(input) have one name, so their generated files (\(name)) would be one; rename one of them")
      }
      guard seen.updateValue(input, forKey: name) == nil else { continue }
      files.append(input)
    }
    return files
  }

  /// The running executable as it is on disk: a rebuilt tool runs every migration again.
  static var toolIdentity: String {
    let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(path) \((attributes[.size] as? NSNumber)?.intValue ?? 0) \(modified)"
  }
}
