import StrataSQL

/// A piece of a fragment whose spelling depends on the database. The fragment's text holds
/// SQLite's spelling (SQLite is the dialect statements run on by default, and rendering for it
/// costs nothing); ``QueryFragment/rendered(for:)`` respells each piece for another dialect.
enum DialectPiece: Hashable, Sendable {
  /// A condition that is always true or false: SQLite's `1` and `0`.
  case boolean(Bool)
  /// No row limit, before an `OFFSET`: SQLite's `LIMIT -1`.
  case noLimit
  /// Text SQLite needs to read the statement as meant, which another database does without
  /// (the `SELECT * FROM (…) WHERE 1` around an upsert's select).
  case sqliteParsingAid(String)
  /// The name of a function SQLite spells its own way: `instr`, `ifnull`, and `min` and `max`
  /// of several arguments.
  case function(SQLiteFunction)
  /// A construct only SQLite has, named for the error that refuses it elsewhere (`INSERT OR
  /// REPLACE`, `json_extract`, `GLOB`); usually an empty marker beside the construct.
  case sqliteOnly(String)
  /// Text PostgreSQL needs that SQLite does without: a cast of an argument to the `integer`
  /// a function takes (PostgreSQL does not narrow a `bigint` on its own), `ESCAPE ''`.
  case postgreSQLText(String)
  /// Text without placeholders that the two spell differently: SQLite's `IS` is PostgreSQL's
  /// `IS NOT DISTINCT FROM`.
  case respelled(sqlite: String, postgreSQL: String)
  /// The `?` of a NULL key in an insert, which SQLite replaces with a key of its own (the next
  /// integer, or the column's default); PostgreSQL refuses NULL there and assigns one for
  /// `DEFAULT`, without a value.
  case assignedKey

  /// SQLite's spelling, which the fragment's text holds.
  var sqliteText: String {
    switch self {
    case .boolean(let value): value ? "1" : "0"
    case .noLimit: "LIMIT -1"
    case .sqliteParsingAid(let text): text
    case .function(let function): function.rawValue
    case .sqliteOnly, .postgreSQLText: ""
    case .respelled(let sqlite, _): sqlite
    case .assignedKey: "?"
    }
  }

  /// Whether the piece stands for a placeholder whose value the other dialect does not send.
  var dropsBinding: Bool {
    if case .assignedKey = self { true } else { false }
  }

  /// The spelling for `dialect`, or the construct `dialect` does not have.
  func text(for dialect: SQLDialect) -> Result<String, DialectError.Reason> {
    switch (self, dialect) {
    case (_, .sqlite): .success(sqliteText)
    case (.boolean(let value), .postgreSQL): .success(value ? "TRUE" : "FALSE")
    case (.noLimit, .postgreSQL): .success("LIMIT ALL")
    case (.sqliteParsingAid, .postgreSQL): .success("")
    case (.function(let function), .postgreSQL): .success(function.postgreSQLName)
    case (.sqliteOnly(let construct), .postgreSQL): .failure(.sqliteOnly(construct))
    case (.postgreSQLText(let text), .postgreSQL): .success(text)
    case (.respelled(_, let text), .postgreSQL): .success(text)
    case (.assignedKey, .postgreSQL): .success("DEFAULT")
    }
  }
}

/// A scalar function whose name differs between databases.
enum SQLiteFunction: String, Hashable, Sendable {
  case instr, ifnull, min, max

  var postgreSQLName: String {
    switch self {
    case .instr: "strpos"
    case .ifnull: "coalesce"
    case .min: "least"
    case .max: "greatest"
    }
  }
}

/// A piece at its place in a fragment's text: UTF-8 offsets.
struct PlacedPiece: Hashable, Sendable {
  var offset: Int
  var length: Int
  var piece: DialectPiece
}

/// A statement that cannot be written for a database: it uses something only SQLite has.
public struct DialectError: Error, CustomStringConvertible, Sendable {
  /// Why.
  public enum Reason: Error, Hashable, Sendable {
    /// A construct of SQLite's own, named.
    case sqliteOnly(String)
  }

  public var dialect: SQLDialect
  public var reason: Reason
  /// The statement, in SQLite's spelling.
  public var sql: String

  public var description: String {
    switch reason {
    case .sqliteOnly(let construct):
      "this statement cannot run on \(dialect.name): it uses \(construct), which only SQLite has: \(sql)"
    }
  }
}

extension QueryFragment {
  /// A piece in SQLite's spelling, respelled when rendered for another dialect.
  init(piece: DialectPiece) {
    self.init(raw: piece.sqliteText)
    pieces = [PlacedPiece(offset: 0, length: piece.sqliteText.utf8.count, piece: piece)]
  }

  /// The fragment marked as using `construct`, which only SQLite has.
  func sqliteOnly(_ construct: String) -> QueryFragment {
    self + QueryFragment(piece: .sqliteOnly(construct))
  }

  /// The SQL text and bindings for `dialect`: SQLite's as built; PostgreSQL's with numbered
  /// placeholders (`$1`, `$2`, …) and each piece respelled.
  ///
  /// - Throws: ``DialectError`` when the fragment uses something `dialect` does not have.
  public func rendered(for dialect: SQLDialect) throws -> (sql: String, bindings: [QueryBinding]) {
    guard dialect != .sqlite else { return (sql, bindings) }
    let respelling = try Respelling.of(sql, pieces, for: dialect)
    return (respelling.sql, respelling.sent(bindings))
  }

  /// The fragment as the argument of a PostgreSQL function that takes `type`: `CAST(x AS
  /// integer)` there, the fragment alone for SQLite.
  func castForPostgreSQL(_ type: String) -> QueryFragment {
    QueryFragment(piece: .postgreSQLText("CAST(")) + argument + QueryFragment(piece: .postgreSQLText(" AS \(type))"))
  }
}
