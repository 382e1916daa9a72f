// `strata`: the Strata generator's command-line tool. The SwiftPM plugins run it; other build
// systems and people can too.
import ArgumentParser
import Foundation
import StrataCommandLine
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
