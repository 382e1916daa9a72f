/// A constraint the database refused a write for, read from its error: which kind, and the
/// table and columns it names.
///
/// Both databases report a broken constraint in an error of their own (GRDB's `DatabaseError`
/// names the columns in its message, `UNIQUE constraint failed: authors.name`; PostgreSQL's
/// names the table, the constraint and the key). This reads either, so an app can tell the user
/// which field is taken without matching on the message:
///
/// ```swift
/// do {
///   try Author.insert { draft }.execute(db)
/// } catch let error where ConstraintViolation(error)?.concerns(Author.self, \.name) == true {
///   // "That name is taken."
/// }
/// ```
public struct ConstraintViolation: Sendable, Equatable {
  /// The kind of constraint.
  public enum Kind: Sendable, Equatable {
    case unique, primaryKey, notNull, check, foreignKey, other
  }

  public let kind: Kind
  /// The table, when the database names one (SQLite does not for a foreign key).
  public let table: String?
  /// The columns, in the database's order, when it names them.
  public let columns: [String]
  /// The name of a `CHECK` constraint, or its expression when it has no name.
  public let check: String?

  /// A violation, for comparing with one read from an error.
  public init(kind: Kind, table: String?, columns: [String], check: String?) {
    self.kind = kind
    self.table = table
    self.columns = columns
    self.check = check
  }

  /// The violation `error` reports, or nil when it is not a broken constraint.
  public init?(_ error: any Error) {
    guard let violation = (error as? any ConstraintViolationReporting)?.constraintViolation else { return nil }
    self = violation
  }

  /// Whether the violation is of `column` of the table `T`, among others:
  /// `violation.concerns(Author.self, \.name)`.
  public func concerns<T: Table, Value>(_ type: T.Type, _ column: KeyPath<T.TableColumns, TableColumn<T, Value>>) -> Bool {
    guard let table, table.lowercased() == T.tableName.lowercased() else { return false }
    let name = T.columns[keyPath: column].name.lowercased()
    return columns.contains { $0.lowercased() == name }
  }
}

/// A database's error that can say which constraint a write broke. The executors' errors
/// conform: GRDB's `DatabaseError` and `PostgreSQLError`.
public protocol ConstraintViolationReporting: Error {
  /// The broken constraint, or nil when the error is about something else.
  var constraintViolation: ConstraintViolation? { get }
}
