/// The database a statement is written for. Strata builds every statement in SQLite's spelling;
/// rendering it for another dialect respells the pieces that differ, and refuses a statement
/// that uses something only SQLite has.
public enum SQLDialect: Hashable, Sendable {
  case sqlite
  case postgreSQL

  /// The database's name, for messages.
  public var name: String {
    switch self {
    case .sqlite: "SQLite"
    case .postgreSQL: "PostgreSQL"
    }
  }
}
