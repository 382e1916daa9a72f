#if PostgreSQL
import PostgresNIO
import StrataCore

/// An error PostgreSQL or the connection to it reported while Strata ran a statement, with
/// everything the server said and the statement's SQL.
///
/// postgres-nio's own `PSQLError` prints a generic text, so that a log never shows a query's
/// values; this error shows the server's message, its fields and the SQL (with placeholders,
/// never the values):
///
/// ```text
/// PostgreSQL error 23505 (unique_violation): duplicate key value violates unique constraint
/// "authors_name_key"; Key (name)=(Ursula) already exists.; table "authors", constraint "authors_name_key"
///   in: INSERT INTO "authors" ("id", "name") VALUES (DEFAULT, $1)
/// ```
///
/// The original error is ``underlying``.
public struct PostgreSQLError: Error, CustomStringConvertible, ConstraintViolationReporting, @unchecked Sendable {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// The server refused the statement: ``sqlState`` says why.
    case server
    /// The connection closed or broke while the statement ran (the server stopped, the network
    /// failed). A transaction that had not committed is rolled back by the server; a `COMMIT`
    /// in flight may or may not have been applied.
    case connectionLost
    /// No connection could be had: every one is in use, or the server does not accept new
    /// ones (see the message).
    case noConnection
    /// The client was shut down.
    case clientClosed
    /// Anything else postgres-nio reported (TLS, authentication, protocol).
    case other
  }

  public let kind: Kind
  /// The SQLSTATE code, for errors the server reported: `23505`, `40001`.
  public let sqlState: String?
  /// The server's message, or what went wrong.
  public let message: String
  /// The server's detail (`Key (name)=(Ursula) already exists.`) and hint.
  public let detail: String?
  public let hint: String?
  /// The table, column, constraint and data type the server named.
  public let table: String?
  public let column: String?
  public let constraint: String?
  public let dataType: String?
  /// The statement's SQL, as sent.
  public let sql: String?
  /// The error postgres-nio threw, if any.
  public let underlying: (any Error)?

  /// An error that did not come from postgres-nio.
  init(_ kind: Kind, _ message: String, sql: String? = nil) {
    self.kind = kind
    self.message = message
    self.sql = sql
    (sqlState, detail, hint, table, column, constraint, dataType, underlying) = (nil, nil, nil, nil, nil, nil, nil, nil)
  }

  /// postgres-nio's error, read.
  init(_ error: PSQLError, sql: String?) {
    self.sql = sql
    underlying = error
    let info = error.serverInfo
    sqlState = info?[.sqlState]
    detail = info?[.detail]
    hint = info?[.hint]
    table = info?[.tableName]
    column = info?[.columnName]
    constraint = info?[.constraintName]
    dataType = info?[.dataTypeName]
    switch error.code {
    case .server:
      kind = .server
      message = info?[.message] ?? "the server refused the statement"
    case .serverClosedConnection, .uncleanShutdown, .connectionError:
      kind = .connectionLost
      message = "the connection to the PostgreSQL server was lost (\(error.code)\(error.underlying.map { ": \($0)" } ?? ""))"
    case .clientClosedConnection, .poolClosed:
      kind = .clientClosed
      message = "the PostgreSQL client was shut down (\(error.code))"
    case .queryCancelled:
      kind = .other
      message = "the statement was cancelled"
    default:
      kind = .other
      message = "\(error.code)\(error.underlying.map { ": \($0)" } ?? "")"
    }
  }

  /// Whether running the transaction again may succeed: PostgreSQL could not serialize it with
  /// another (`40001`) or chose it as a deadlock's victim (`40P01`), or a statement prepared on
  /// the connection before a migration no longer fits the tables (``isStaleStatement``).
  public var isTransient: Bool {
    sqlState == "40001" || sqlState == "40P01" || isStaleStatement
  }

  /// Whether the error came from a statement the connection had prepared under a name (see
  /// ``PostgreSQLDatabase/Configuration/namedStatements``) that it no longer holds, or whose
  /// rows a migration changed the type of since ("cached plan must not change result type").
  /// The statement gets a new name, so the same statement runs when its transaction runs again.
  public internal(set) var isStaleStatement = false

  public var description: String {
    var text = "PostgreSQL"
    switch kind {
    case .server: text += " error \(sqlState ?? "?")\(sqlState.flatMap(Self.conditionNames.index(forKey:)).map { " (\(Self.conditionNames.values[$0]))" } ?? ""): "
    case .connectionLost, .noConnection, .clientClosed, .other: text += ": "
    }
    text += message
    if let detail { text += "; \(detail)" }
    if let hint { text += "; hint: \(hint)" }
    let names = [("table", table), ("column", column), ("constraint", constraint), ("type", dataType)]
      .compactMap { label, value in value.map { "\(label) \"\($0)\"" } }
    if !names.isEmpty { text += "; " + names.joined(separator: ", ") }
    if let sql { text += "\n  in: \(sql)" }
    return text
  }

  /// The names of the conditions an app meets most, for messages.
  private static let conditionNames: [String: String] = [
    "23505": "unique_violation", "23502": "not_null_violation", "23503": "foreign_key_violation",
    "23514": "check_violation", "23P01": "exclusion_violation", "40001": "serialization_failure",
    "40P01": "deadlock_detected", "42P01": "undefined_table", "42703": "undefined_column",
    "42883": "undefined_function", "42601": "syntax_error", "42804": "datatype_mismatch",
    "42P08": "ambiguous_parameter", "42P18": "indeterminate_datatype", "22P02": "invalid_text_representation",
    "22003": "numeric_value_out_of_range", "22012": "division_by_zero", "22001": "string_data_right_truncation",
    "25006": "read_only_sql_transaction", "25P02": "in_failed_sql_transaction", "55P03": "lock_not_available",
    "57014": "query_canceled", "57P01": "admin_shutdown", "53300": "too_many_connections", "P0001": "raise_exception",
  ]

  public var constraintViolation: ConstraintViolation? {
    let kind: ConstraintViolation.Kind
    switch sqlState {
    case "23505": kind = constraint?.hasSuffix("_pkey") == true ? .primaryKey : .unique
    case "23502": kind = .notNull
    case "23514": kind = .check
    case "23503": kind = .foreignKey
    case let state? where state.hasPrefix("23"): kind = .other
    default: return nil
    }
    switch kind {
    case .check: return ConstraintViolation(kind: kind, table: table, columns: [], check: constraint)
    case .notNull: return ConstraintViolation(kind: kind, table: table, columns: column.map { [$0] } ?? [], check: nil)
    default: return ConstraintViolation(kind: kind, table: table, columns: Self.keyColumns(in: detail), check: nil)
    }
  }

  /// The columns of a detail such as `Key (a, b)=(1, 2) already exists.`; names PostgreSQL had to
  /// quote keep their quotes' content.
  private static func keyColumns(in detail: String?) -> [String] {
    guard let detail, detail.hasPrefix("Key ("), let end = detail.range(of: ")=(") else { return [] }
    let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
    return list.components(separatedBy: ", ").map { name in
      name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2
        ? String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : name
    }
  }

  /// `error` as Strata reports it: postgres-nio's errors read into a ``PostgreSQLError`` that
  /// names the statement; others unchanged.
  @usableFromInline
  static func reading(_ error: any Error, sql: String?) -> any Error {
    if let error = error as? PSQLError { return PostgreSQLError(error, sql: sql ?? error.query?.sql) }
    return error
  }
}
#endif
