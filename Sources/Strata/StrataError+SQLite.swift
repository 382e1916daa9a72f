import GRDBSQLite
import StrataCore

extension StrataError {
  @usableFromInline
  static func binding(code: Int32, index: Int32, sql: String) -> StrataError {
    let reason = sqlite3_errstr(code).map { String(cString: $0) } ?? "error \(code)"
    return StrataError("could not bind parameter \(index): \(reason)", sql: sql)
  }

  @usableFromInline
  static func parameterCount(expected: Int32, given: Int32, sql: String) -> StrataError {
    StrataError(
      "the statement has \(expected) parameter\(expected == 1 ? "" : "s") but \(given) value\(given == 1 ? " was" : "s were") bound",
      sql: sql)
  }
}
