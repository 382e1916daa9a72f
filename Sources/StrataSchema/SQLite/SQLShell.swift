import Foundation

/// Runs SQL on a database file with the functions Strata's tables need, for fixing a row by
/// hand: a table Strata made has UUID keys that default to `uuid()`, so an `INSERT` into it fails
/// in a tool that has not registered that function (the sqlite3 shell, a database browser), even
/// with the key given, because SQLite compiles the default into every insert.
public enum SQLShell {
  /// Runs each statement of `script` on the database at `path`, in order, and returns the rows
  /// the statements return, one line each, columns separated by `|` and NULL written as nothing
  /// (the sqlite3 shell's list mode).
  ///
  /// - Throws: ``InputError`` for a file that does not exist or cannot be opened, or with the
  ///   message of the statement SQLite refused.
  public static func run(_ script: String, onDatabaseAt path: String) throws -> [String] {
    guard FileManager.default.fileExists(atPath: path) else { throw InputError("\(path): no such file") }
    var lines: [String] = []
    do {
      let connection = try SQLiteConnection(openingFile: path)
      try connection.runScript(script, inspect: { _, _ in }) { values in
        lines.append(values.map { $0 ?? "" }.joined(separator: "|"))
      }
    } catch let error as SQLiteError {
      throw InputError("\(path): \(error.message)")
    } catch let failure as ScriptFailure {
      throw InputError("\(path): \(failure.message)")
    }
    return lines
  }
}
