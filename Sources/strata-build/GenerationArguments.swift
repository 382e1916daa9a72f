import StrataSchema

/// `strata generate`'s arguments, read without swift-argument-parser: the build plugin runs this
/// tool in every consumer's build, and SwiftPM builds a plugin's tool before anything else, so
/// every module it needs is on the clean build's critical path.
///
/// Options are `--name value` or `--name=value`; anything else is a model file or directory.
struct GenerationArguments {
  /// A problem with the command line: printed with the usage, exit status 64.
  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  /// What the arguments ask for.
  let generation: ModuleGeneration

  init(_ arguments: some Collection<String>) throws(UsageError) {
    var values: [String: String] = [:]
    var inputs: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      guard argument.hasPrefix("-") else {
        inputs.append(argument)
        continue
      }
      let name = String(argument.prefix { $0 != "=" })
      guard Self.options.contains(name) else { throw UsageError(description: "unknown option '\(name)'") }
      if let equals = argument.firstIndex(of: "=") {
        values[name] = String(argument[argument.index(after: equals)...])
      } else if let value = remaining.popFirst() {
        values[name] = value
      } else {
        throw UsageError(description: "missing value for '\(name)'")
      }
    }
    var runtime = RuntimeModule.strata
    if let name = values["--runtime"] {
      guard let module = RuntimeModule(rawValue: name) else {
        let choices = RuntimeModule.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        throw UsageError(description: "the value '\(name)' is invalid for '--runtime'; give one of \(choices)")
      }
      runtime = module
    }
    generation = ModuleGeneration(
      inputs: inputs, root: values["--root"], runtime: runtime, output: values["--output"],
      perFileOutputs: values["--per-file-outputs"], checkedIn: values["--checked-in"], schemaModelsOutput: values["--schema-models-output"],
      migrations: values["--migrations"], registryOutput: values["--registry-output"])
    if let problem = generation.usageProblem { throw UsageError(description: problem) }
  }

  /// `strata generate`'s options. `--module` is taken, as `strata generate` takes it, and names
  /// nothing the work needs.
  static let options: Set = [
    "--root", "--module", "--runtime", "--output", "--per-file-outputs", "--checked-in", "--schema-models-output", "--migrations",
    "--registry-output",
  ]
}
