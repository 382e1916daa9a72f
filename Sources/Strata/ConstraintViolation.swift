import GRDB
import StrataCore

/// A constraint SQLite refused a write for, read from its error: which kind, and the table and
/// columns it names.
///
/// SQLite reports a broken constraint as a GRDB `DatabaseError` whose message names the columns
/// (`UNIQUE constraint failed: authors.name`). This reads it, so an app can tell the user which
/// field is taken without matching on the message:
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
  /// The table, when SQLite names one (not for a foreign key, whose message names nothing).
  public let table: String?
  /// The columns, in SQLite's order, when it names them.
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
    guard let error = error as? DatabaseError, error.resultCode == .SQLITE_CONSTRAINT else { return nil }
    let message = error.message ?? ""
    switch error.extendedResultCode {
    case .SQLITE_CONSTRAINT_UNIQUE: kind = .unique
    case .SQLITE_CONSTRAINT_PRIMARYKEY: kind = .primaryKey
    case .SQLITE_CONSTRAINT_NOTNULL: kind = .notNull
    case .SQLITE_CONSTRAINT_CHECK: kind = .check
    case .SQLITE_CONSTRAINT_FOREIGNKEY: kind = .foreignKey
    default: kind = .other
    }
    // `<KIND> constraint failed: table.column, table.column` or `CHECK constraint failed: name`.
    let detail = message.range(of: "constraint failed: ").map { String(message[$0.upperBound...]) }
    if kind == .check {
      (table, columns, check) = (nil, [], detail)
      return
    }
    let names = detail?.components(separatedBy: ", ").compactMap { name -> (String, String)? in
      guard let dot = name.lastIndex(of: ".") else { return nil }
      return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    } ?? []
    (table, columns, check) = (names.first?.0, names.map(\.1), nil)
  }

  /// Whether the violation is of `column` of the table `T`, among others:
  /// `violation.concerns(Author.self, \.name)`.
  public func concerns<T: StrataCore.Table, Value>(_ type: T.Type, _ column: KeyPath<T.TableColumns, TableColumn<T, Value>>) -> Bool {
    guard let table, table.lowercased() == T.tableName.lowercased() else { return false }
    let name = T.columns[keyPath: column].name.lowercased()
    return columns.contains { $0.lowercased() == name }
  }
}
