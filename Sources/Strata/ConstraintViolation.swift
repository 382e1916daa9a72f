import GRDB
import StrataCore

extension DatabaseError: ConstraintViolationReporting {
  /// The constraint SQLite refused a write for, read from the message, which names the columns
  /// (`UNIQUE constraint failed: authors.name`).
  public var constraintViolation: ConstraintViolation? {
    guard resultCode == .SQLITE_CONSTRAINT else { return nil }
    let message = self.message ?? ""
    let kind: ConstraintViolation.Kind
    switch extendedResultCode {
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
      return ConstraintViolation(kind: kind, table: nil, columns: [], check: detail)
    }
    let names = detail?.components(separatedBy: ", ").compactMap { name -> (String, String)? in
      guard let dot = name.lastIndex(of: ".") else { return nil }
      return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    } ?? []
    return ConstraintViolation(kind: kind, table: names.first?.0, columns: names.map(\.1), check: nil)
  }
}
