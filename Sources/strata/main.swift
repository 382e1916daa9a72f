// `strata`: the Strata generator's command-line tool. The SwiftPM plugins run it; other build
// systems can too.
import Foundation
import StrataSchema

let usage = """
  usage: strata <command> [options] <model files or directories>…

  commands:
    generate     write the models' conformances (and the migration registry)
                   --output FILE            the Swift file for the conformances (required)
                   --migrations DIR         the migration files to embed
                   --registry-output FILE   the Swift file for the migration registry
    migrations   add a migration for what the models ask for that the migrations lack
                   --migrations DIR         where the migration files are (required)
                   --snapshot FILE          the schema snapshot to keep up to date
                   --diagram FILE           its entity-relationship diagram (Markdown, Mermaid)
                   --checksums FILE         the migrations' checksum manifest
                   --check                  write nothing; exit 0 when everything is current,
                                            2 when a migration or a file is missing or stale,
                                            1 on errors
                   --allow-data-loss        let the migration drop tables and columns
                   --accept-edits           accept edited migrations into the checksums
    schema       print the DDL the models ask for

  options for every command:
    --root DIR     the module's directory; file names in headers are relative to it
    --module NAME  the module's name, for messages and headers

  exit status: 0 on success, 1 on errors (printed as path:line:column: error:), 2 when --check
  finds something out of date, 64 for bad arguments
  """

var arguments = CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
let exitCode: Int32
do {
  switch arguments.command {
  case "generate":
    exitCode = try GenerateCommand(arguments: &arguments).run()
  case "migrations":
    exitCode = try MigrationsCommand(arguments: &arguments).run()
  case "schema":
    exitCode = try SchemaCommand(arguments: &arguments).run()
  case "help", "--help", "-h":
    print(usage)
    exitCode = 0
  default:
    throw UsageError("unknown command '\(arguments.command ?? "")'")
  }
} catch let error as UsageError {
  FileHandle.standardError.write(Data("strata: \(error.message)\n\n\(usage)\n".utf8))
  exitCode = 64
} catch let error as DiagnosticsError {
  for diagnostic in error.diagnostics {
    FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
  }
  exitCode = 1
} catch {
  FileHandle.standardError.write(Data("strata: error: \(error)\n".utf8))
  exitCode = 1
}
exit(exitCode)

/// Prints diagnostics that did not stop the command, such as warnings.
func report(_ diagnostics: [Diagnostic]) {
  for diagnostic in diagnostics {
    FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
  }
}
