// `strata`: the Strata generator's command-line tool. The SwiftPM plugins run it; other build
// systems and people can too.
import ArgumentParser
import Foundation
import StrataSchema

@main
struct StrataCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "strata",
    abstract: "Generate Swift conformances and SQLite migrations from models (Swift files or .strata schema files).",
    discussion: """
      Diagnostics are printed as path:line:column: error: message, the form SwiftPM and Xcode \
      attach to the source line.

      Exit status: 0 on success, 1 on errors, 2 when `migrations --check` finds something out \
      of date, 64 for bad arguments.
      """,
    version: StrataVersion.current,
    subcommands: [GenerateCommand.self, MigrationsCommand.self, SchemaCommand.self, ImportCommand.self, SQLCommand.self, DatabaseCommand.self])
}

/// The options every command takes: the model files and the module they belong to.
struct ModuleOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The module's directory; file names in generated headers are relative to it.", valueName: "dir"))
  var root: String?

  @Option(help: ArgumentHelp("The module's name, for messages and headers.", valueName: "name"))
  var module: String?

  @Argument(help: ArgumentHelp("Model files (Swift or .strata schema files), or directories to search for them.", valueName: "models"))
  var inputs: [String] = []

  @Option(
    help: ArgumentHelp(
      "The module the generated Swift imports: Strata (SQLite), or StrataPostgreSQL for a target that depends on that product alone.",
      valueName: "module"))
  var runtime: RuntimeModule = .strata

  /// The module's name: given, or the root directory's.
  var moduleName: String {
    module ?? root.map { ($0 as NSString).lastPathComponent } ?? "the module"
  }
}

/// Runs a command's work, printing what stopped it the way compilers do.
func reportingFailures(_ body: () throws -> Int32) throws {
  let status: Int32
  do {
    status = try body()
  } catch {
    guard ToolOutput.reportFailure(error, tool: "strata") else { throw error }
    throw ExitCode.failure
  }
  if status != 0 { throw ExitCode(status) }
}

extension RuntimeModule: ExpressibleByArgument {}
