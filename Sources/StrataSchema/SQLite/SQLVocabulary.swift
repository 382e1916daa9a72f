/// The words of SQLite's DDL that the schema model holds as values, so that the planner compares
/// and rebuilds tables by meaning rather than by spelling. The words queries share (collations,
/// conflict resolutions, referential actions) are StrataSQL's.
import StrataSQL

/// A column's declared type. STRICT tables allow only the first five; other tables keep
/// whatever was written, uppercased.
public enum SQLType: Hashable, Sendable {
  case integer, real, text, blob, any
  /// No type at all, as in `CREATE TABLE t (a)`.
  case none
  /// Another declared type of a non-STRICT table: `VARCHAR(10)`.
  case other(String)

  /// The type as SQLite reports it (`pragma_table_info`), in any case.
  public init(declared: String) {
    switch declared.uppercased() {
    case "INTEGER": self = .integer
    case "REAL": self = .real
    case "TEXT": self = .text
    case "BLOB": self = .blob
    case "ANY": self = .any
    case "": self = .none
    case let other: self = .other(other)
    }
  }

  /// The type as DDL writes it.
  public var sql: String {
    switch self {
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    case .any: "ANY"
    case .none: ""
    case .other(let text): text
    }
  }
}

/// A column's default: a literal value, one of SQLite's time keywords, or an expression in
/// parentheses. Only literals can be given to rows that exist when a column is added.
public enum ColumnDefault: Hashable, Sendable {
  /// `NULL`, a number as written (`0`, `-1`, `1.5`), a string's text, or a blob's hex digits.
  case null
  case integer(String)
  case real(String)
  case text(String)
  case blob(String)
  /// `TRUE`, `FALSE`, `CURRENT_TIME`, `CURRENT_DATE`, `CURRENT_TIMESTAMP`.
  case keyword(String)
  /// The SQL inside the parentheses: `uuid()` for `DEFAULT (uuid())`.
  case expression(String)

  /// The default as SQLite reports it (`pragma_table_info.dflt_value`).
  public init(reported text: String) {
    let upper = text.uppercased()
    if upper == "NULL" {
      self = .null
    } else if ["TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(upper) {
      self = .keyword(upper)
    } else if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
      self = .text(String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
    } else if upper.hasPrefix("X'"), text.hasSuffix("'") {
      self = .blob(String(text.dropFirst(2).dropLast()))
    } else if Int64(text) != nil || (text.hasPrefix("0x") && Int64(text.dropFirst(2), radix: 16) != nil) {
      self = .integer(text)
    } else if Double(text) != nil {
      self = .real(text)
    } else {
      self = .expression(text)
    }
  }

  /// The default as DDL writes it after `DEFAULT`.
  public var sql: String {
    switch self {
    case .null: "NULL"
    case .integer(let digits), .real(let digits): digits
    case .text(let text): SQLQuoting.string(text)
    case .blob(let hex): "X'\(hex)'"
    case .keyword(let word): word
    case .expression(let expression): "(\(expression))"
    }
  }

  /// Whether `ALTER TABLE ADD COLUMN` can give it to existing rows: SQLite requires a constant.
  public var isConstant: Bool {
    switch self {
    case .expression: false
    case .keyword(let word): word == "TRUE" || word == "FALSE"
    default: true
    }
  }
}
