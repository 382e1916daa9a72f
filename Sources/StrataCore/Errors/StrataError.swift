/// An error raised by Strata itself rather than by the database (whose errors arrive as the
/// driver's: GRDB's `DatabaseError`, postgres-nio's `PSQLError`) or by decoding
/// (`QueryDecodingError`).
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
}
