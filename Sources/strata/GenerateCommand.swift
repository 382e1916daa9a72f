import ArgumentParser
import Foundation
import StrataCommandLine
import StrataSchema

/// `strata generate`: what the build plugin does, for other build systems and people. (The plugin
/// runs `strata-build`, which takes the same arguments without this tool's command line.)
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
      "A folder for the conformances of each model file named, in a file of their own (StrataModels+<file name>), so that an edit of one model file changes one generated file; --output holds the rest.",
      valueName: "dir"))
  var perFileOutputs: String?

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

  /// The work, in the values the options name.
  private var generation: ModuleGeneration {
    ModuleGeneration(
      inputs: options.inputs, root: options.root, runtime: options.runtime, output: output, perFileOutputs: perFileOutputs,
      checkedIn: checkedIn,
      schemaModelsOutput: schemaModelsOutput, migrations: migrations, registryOutput: registryOutput)
  }

  func validate() throws {
    if let problem = generation.usageProblem { throw ValidationError(problem) }
  }

  func run() throws {
    try reportingFailures {
      try generation.run()
      return 0
    }
  }
}
