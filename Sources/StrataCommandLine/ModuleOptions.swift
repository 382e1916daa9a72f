import ArgumentParser
import Foundation
import StrataSchema

/// The options every command takes: the model files and the module they belong to.
package struct ModuleOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The module's directory; file names in generated headers are relative to it.", valueName: "dir"))
  package var root: String?

  @Option(help: ArgumentHelp("The module's name, for messages and headers.", valueName: "name"))
  package var module: String?

  @Argument(help: ArgumentHelp("Model files (Swift or .strata schema files), or directories to search for them.", valueName: "models"))
  package var inputs: [String] = []

  @Option(
    help: ArgumentHelp(
      "The module the generated Swift imports: Strata (SQLite), or StrataPostgreSQL for a target that depends on that product alone.",
      valueName: "module"))
  package var runtime: RuntimeModule = .strata

  package init() {}

  /// The module's name: given, or the root directory's.
  package var moduleName: String {
    module ?? root.map { ($0 as NSString).lastPathComponent } ?? "the module"
  }
}

/// Runs a command's work, printing what stopped it the way compilers do.
package func reportingFailures(_ body: () throws -> Int32) throws {
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
