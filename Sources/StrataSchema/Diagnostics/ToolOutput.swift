import Foundation

/// How Strata's command-line tools report on standard error, in the form SwiftPM and Xcode
/// attach to source lines. Both tools (`strata` and the build plugin's `strata-build`) print
/// through here, so a build reads the same whichever one ran.
public enum ToolOutput {
  /// Prints diagnostics that did not stop the command, such as warnings.
  public static func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
      FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
    }
  }

  /// Prints an error that stopped `tool`: diagnostics at their lines, bad input as
  /// `tool: error: message`. Returns false, printing nothing, for an error of another kind,
  /// which the caller reports its own way.
  public static func reportFailure(_ error: any Error, tool: String) -> Bool {
    switch error {
    case let error as DiagnosticsError:
      report(error.diagnostics)
    case let error as InputError:
      FileHandle.standardError.write(Data("\(tool): error: \(error)\n".utf8))
    default:
      return false
    }
    return true
  }
}
