import Foundation
import StrataSchema

/// `strata generate`: the build-tool plugin's command.
struct GenerateCommand {
  let output: String
  let migrations: String?
  let registryOutput: String?
  let root: String?
  let inputs: [String]

  init(arguments: inout CommandLineArguments) throws {
    try arguments.validate(needsInputs: false)
    output = try arguments.required("--output")
    migrations = arguments.value("--migrations")
    registryOutput = arguments.value("--registry-output")
    root = arguments.value("--root")
    inputs = arguments.inputs
    if (migrations == nil) != (registryOutput == nil) {
      throw UsageError("--migrations and --registry-output go together")
    }
  }

  func run() throws -> Int32 {
    let generator = try Generator(inputs: inputs, root: root)
    let models = try generator.models()
    report(models.warnings)
    let code = generator.conformances(of: models)
    var registry: String?
    if let migrations {
      let files = try MigrationFiles(directory: migrations, root: root)
      report(files.warnings)
      // A target without a Migrations folder has not adopted Strata's migrations (its tables may
      // be made some other way), so only the migrations' own errors matter there.
      let drift = try MigrationDrift.warnings(models: models, migrations: files)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: migrations, isDirectory: &isDirectory), isDirectory.boolValue {
        report(drift)
      }
      registry = files.registry()
    }
    // Both outputs are computed before either is written, so a failure leaves both untouched.
    try AtomicFile.write(code, to: output)
    if let registry, let registryOutput {
      try AtomicFile.write(registry, to: registryOutput)
    }
    return 0
  }
}
