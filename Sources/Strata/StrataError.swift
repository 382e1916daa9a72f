import GRDBSQLite

/// An error raised by Strata itself rather than by SQLite (whose errors arrive as GRDB's
/// `DatabaseError`) or by decoding (`QueryDecodingError`).
public struct StrataError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public let message: String
  /// The SQL of the statement involved, if any.
  public let sql: String?

  /// An error with a message and, if any, the SQL concerned.
  public init(_ message: String, sql: String? = nil) {
    self.message = message
    self.sql = sql
  }

  public var description: String {
    guard let sql else { return message }
    return "\(message)\n  in: \(sql)"
  }

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
