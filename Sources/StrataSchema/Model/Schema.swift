/// The schema model: tables, columns, keys and indexes, as SQL sees them.
///
/// Front-ends produce it from models; the introspector produces it from a SQLite database; the
/// SQL renderer turns it into DDL; the planner compares two of them.
public struct Schema: Hashable, Sendable {
  public var tables: [TableSchema]

  public init(tables: [TableSchema]) {
    self.tables = tables
  }

  public func table(named name: String) -> TableSchema? {
    tables.first { $0.name == name }
  }
}

public struct TableSchema: Hashable, Sendable {
  public var name: String
  public var columns: [ColumnSchema]
  /// A primary key declared as a table constraint (more than one column); a single-column key
  /// is declared on its column.
  public var compositePrimaryKey: [String]
  public var isStrict: Bool
  public var isWithoutRowID: Bool
  public var indexes: [IndexSchema]
  /// Table constraints the model cannot express (`CHECK`, table-level `UNIQUE`, `FOREIGN KEY`),
  /// as normalized SQL.
  public var otherConstraints: [String]

  public init(
    name: String, columns: [ColumnSchema], compositePrimaryKey: [String] = [], isStrict: Bool = true,
    isWithoutRowID: Bool = false, indexes: [IndexSchema] = [], otherConstraints: [String] = []
  ) {
    self.name = name
    self.columns = columns
    self.compositePrimaryKey = compositePrimaryKey
    self.isStrict = isStrict
    self.isWithoutRowID = isWithoutRowID
    self.indexes = indexes
    self.otherConstraints = otherConstraints
  }

  public func column(named name: String) -> ColumnSchema? {
    columns.first { $0.name == name }
  }
}

public struct ColumnSchema: Hashable, Sendable {
  public struct PrimaryKey: Hashable, Sendable {
    public var isAutoincrement: Bool
    /// The `ON CONFLICT` resolution of the key constraint.
    public var onConflict: String?

    public init(isAutoincrement: Bool = false, onConflict: String? = nil) {
      self.isAutoincrement = isAutoincrement
      self.onConflict = onConflict
    }
  }

  public var name: String
  /// The declared type: `TEXT`, `INTEGER`, `REAL`, `BLOB`, `ANY`.
  public var type: String
  public var primaryKey: PrimaryKey?
  public var isNotNull: Bool
  /// The `ON CONFLICT` resolution of the `NOT NULL` constraint: `REPLACE` for UUID keys.
  public var notNullOnConflict: String?
  public var isUnique: Bool
  public var collation: String?
  /// The default as SQL: `''`, `0`, `(uuid())`.
  public var defaultValue: String?
  public var references: ForeignKey?
  /// Column constraints the model cannot express (`CHECK`, `GENERATED`), as normalized SQL.
  public var otherConstraints: [String]

  public init(
    name: String, type: String, primaryKey: PrimaryKey? = nil, isNotNull: Bool = false,
    notNullOnConflict: String? = nil, isUnique: Bool = false, collation: String? = nil,
    defaultValue: String? = nil, references: ForeignKey? = nil, otherConstraints: [String] = []
  ) {
    self.name = name
    self.type = type
    self.primaryKey = primaryKey
    self.isNotNull = isNotNull
    self.notNullOnConflict = notNullOnConflict
    self.isUnique = isUnique
    self.collation = collation
    self.defaultValue = defaultValue
    self.references = references
    self.otherConstraints = otherConstraints
  }
}

public struct ForeignKey: Hashable, Sendable {
  public var table: String
  public var column: String
  /// `CASCADE`, `SET NULL`, `SET DEFAULT`, `RESTRICT`, or nil for SQLite's default (no action).
  public var onDelete: String?
  public var onUpdate: String?

  public init(table: String, column: String, onDelete: String? = nil, onUpdate: String? = nil) {
    self.table = table
    self.column = column
    self.onDelete = onDelete
    self.onUpdate = onUpdate
  }
}

public struct IndexSchema: Hashable, Sendable {
  public var name: String
  public var table: String
  public var columns: [String]
  public var isUnique: Bool
  /// The `WHERE` clause of a partial index.
  public var condition: String?

  public init(name: String, table: String, columns: [String], isUnique: Bool = false, condition: String? = nil) {
    self.name = name
    self.table = table
    self.columns = columns
    self.isUnique = isUnique
    self.condition = condition
  }

  /// The name the generator gives the index on `columns` of `table`.
  public static func conventionalName(table: String, columns: [String]) -> String {
    "index_\(table)_on_\(columns.joined(separator: "_"))"
  }
}
