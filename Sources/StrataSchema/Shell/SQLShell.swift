import Foundation
import GRDBSQLite

/// Runs SQL on a database file with the functions Strata's tables need, for fixing a row by
/// hand: a table Strata made has UUID keys that default to `uuid()`, so an `INSERT` into it fails
/// in a tool that has not registered that function (the sqlite3 shell, a database browser), even
/// with the key given, because SQLite compiles the default into every insert.
public enum SQLShell {
  /// Runs each statement of `script` on the database at `path`, in order, and returns the rows
  /// the statements return, one line each, columns separated by `|` and NULL written as nothing
  /// (the sqlite3 shell's list mode).
  ///
  /// - Throws: ``InputError`` for a file that does not exist or is not a database, or the
  ///   message of the statement SQLite refused, with the statement.
  public static func run(_ script: String, onDatabaseAt path: String) throws -> [String] {
    guard FileManager.default.fileExists(atPath: path) else { throw InputError("\(path): no such file") }
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      throw InputError("\(path): cannot open it: \(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "unknown error")")
    }
    sqlite3_busy_timeout(handle, 5_000)
    sqlite3_create_function_v2(handle, "uuid", 0, SQLITE_UTF8, nil, randomUUID, nil, nil, nil)
    sqlite3_exec(handle, "PRAGMA foreign_keys = ON", nil, nil, nil)
    var lines: [String] = []
    let bytes = Array(script.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      try base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
        var offset = 0
        while offset < bytes.count {
          var statement: OpaquePointer?
          var tail: UnsafePointer<CChar>?
          guard sqlite3_prepare_v2(handle, text + offset, Int32(bytes.count - offset), &statement, &tail) == SQLITE_OK else {
            throw InputError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
          }
          defer { sqlite3_finalize(statement) }
          let next = tail.map { $0 - text } ?? bytes.count
          let sql = String(decoding: bytes[offset..<next], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
          offset = next
          guard let statement else { continue }
          while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
              throw InputError("\(path): \(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
            }
            lines.append(
              (0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
              }.joined(separator: "|"))
          }
        }
      }
    }
    return lines
  }
}
