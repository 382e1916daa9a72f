/// A schema object other than a table or an index: a view, a trigger or a virtual table. Models
/// do not declare these yet; the planner keeps them as the migrations made them, drops and
/// recreates the ones that use a table it rebuilds, and refuses a change that would break one.
public enum SchemaObject: Hashable, Sendable {
  case view(name: String, sql: String)
  /// A trigger, with the table (or view) it fires on.
  case trigger(name: String, table: String, sql: String)
  /// A virtual table (`CREATE VIRTUAL TABLE … USING fts5(…)`), whose shadow tables are its own.
  case virtualTable(name: String, sql: String)

  /// The object's name.
  public var name: String {
    switch self {
    case .view(let name, _), .trigger(let name, _, _), .virtualTable(let name, _): name
    }
  }

  /// The `CREATE` statement SQLite keeps for the object, without a final `;`.
  public var sql: String {
    switch self {
    case .view(_, let sql), .trigger(_, _, let sql), .virtualTable(_, let sql): sql
    }
  }

  /// The object's kind in SQL and in messages: `VIEW`, `TRIGGER`, `VIRTUAL TABLE`.
  public var kind: Kind {
    switch self {
    case .view: .view
    case .trigger: .trigger
    case .virtualTable: .virtualTable
    }
  }

  /// The kinds of object.
  public enum Kind: String, Sendable {
    case view = "VIEW", trigger = "TRIGGER", virtualTable = "VIRTUAL TABLE"

    /// The kind in a message: `view`, `trigger`, `virtual table`.
    public var description: String { rawValue.lowercased() }
  }

  /// Whether the object's SQL names `name` (a table or a column): a view or trigger that does
  /// depends on it, and must be dropped and recreated around a rebuild of it.
  public func uses(_ name: String) -> Bool {
    SQLDependencies.mentions(sql, name: name)
  }
}
