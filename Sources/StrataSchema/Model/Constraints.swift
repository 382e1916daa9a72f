import StrataSQL

/// A constraint of a table beyond what its columns say: the planner keeps, compares and renders
/// it by kind, never by reading its SQL again.
public enum TableConstraint: Hashable, Sendable {
  /// `PRIMARY KEY (a, b)`: a key on several columns.
  case primaryKey([String])
  /// `[CONSTRAINT name] CHECK (expression)`; models declare unnamed ones (`@Check(raw:)`).
  case check(CheckConstraint)
  /// `[CONSTRAINT name] UNIQUE (columns) [ON CONFLICT …]`.
  case unique(name: String?, columns: [String], onConflict: ConflictResolution?)
  /// A foreign key on several columns: `FOREIGN KEY (a, b) REFERENCES t (x, y) …`. A key on one
  /// column is the column's ``ColumnSchema/references``.
  case foreignKey(name: String?, columns: [String], references: String, referencedColumns: [String], onDelete: ReferentialAction?, onUpdate: ReferentialAction?)
  /// A constraint written in a form Strata does not read (`DEFERRABLE`, `MATCH`, an expression
  /// in a `UNIQUE`), kept as its normalized SQL.
  case raw(String)

  /// The check, if the constraint is one.
  public var check: CheckConstraint? {
    if case .check(let check) = self { check } else { nil }
  }
}

/// A constraint of one column beyond its type, key, nullability, uniqueness, collation, default
/// and reference, which models cannot declare: the planner keeps it as the migrations made it.
public enum ColumnConstraint: Hashable, Sendable {
  case check(CheckConstraint)
  /// `GENERATED ALWAYS AS (expression) [STORED | VIRTUAL]`.
  case generated(expression: String, storage: GeneratedStorage?)
  /// A constraint written in a form Strata does not read, as its normalized SQL.
  case raw(String)
}

/// Whether a generated column's values are stored or computed when read.
public enum GeneratedStorage: String, Hashable, Sendable {
  case stored = "STORED", virtual = "VIRTUAL"
}

/// `[CONSTRAINT name] CHECK (expression)`.
public struct CheckConstraint: Hashable, Sendable {
  /// The constraint's name, which SQLite reports in the error a failing row raises.
  public var name: String?
  /// The condition, as normalized SQL.
  public var expression: String

  public init(name: String? = nil, expression: String) {
    self.name = name
    self.expression = expression
  }
}
