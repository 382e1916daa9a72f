// `strata-build`: the tool the build plugin runs, `strata generate` without the command line's
// other commands, help and argument parsing, so that a consumer's clean build compiles less
// before it can start on the app. People and other build systems run `strata generate`.
import Foundation
import StrataSchema

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  print("""
    USAGE: strata-build <strata generate's options> <models> ...

    The Strata build plugin's tool; it takes the arguments of `strata generate`, whose help
    (`strata generate --help`) describes them.
    """)
  exit(0)
}
do {
  try GenerationArguments(arguments).generation.run()
} catch let error as GenerationArguments.UsageError {
  FileHandle.standardError.write(Data("strata-build: error: \(error)\nUsage: strata-build <strata generate's options> <models> ...\n".utf8))
  exit(64)
} catch {
  if !ToolOutput.reportFailure(error, tool: "strata-build") {
    FileHandle.standardError.write(Data("strata-build: error: \(error)\n".utf8))
  }
  exit(1)
}
