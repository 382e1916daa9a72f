import StrataSQL

/// The schema model: tables, columns, keys and indexes, as SQL sees them.
///
/// Front-ends produce it from models; the introspector produces it from a SQLite database; the
/// SQL renderer turns it into DDL; the planner compares two of them.
public struct Schema: Hashable, Sendable {
  /// The tables, in creation order (referenced tables first) or by name when introspected.
  public var tables: [TableSchema]
  /// The full-text indexes, views and triggers the models declare, in the models' order.
  public var objects: [DeclaredObject]

  /// A schema of `tables` and `objects`.
  public init(tables: [TableSchema], objects: [DeclaredObject] = []) {
    self.tables = tables
    self.objects = objects
  }

  /// The table called `name`, if any.
  public func table(named name: String) -> TableSchema? {
    tables.first { $0.name == name }
  }
}

/// A table: its columns, key, options and indexes.
public struct TableSchema: Hashable, Sendable {
  /// The table's name.
  public var name: String
  /// The columns, in the table's order.
  public var columns: [ColumnSchema]
  /// Whether the table is `STRICT`.
  public var isStrict: Bool
  /// Whether the table is `WITHOUT ROWID`.
  public var isWithoutRowID: Bool
  /// The indexes on the table, other than those SQLite makes for keys and `UNIQUE`.
  public var indexes: [IndexSchema]
  /// The table's constraints: a key on several columns first, then checks, `UNIQUE` and
  /// `FOREIGN KEY` on several columns, in the order the table declares them.
  public var constraints: [TableConstraint]

  /// A table; only the name and columns are required.
  public init(
    name: String, columns: [ColumnSchema], compositePrimaryKey: [String] = [], isStrict: Bool = true,
    isWithoutRowID: Bool = false, indexes: [IndexSchema] = [], constraints: [TableConstraint] = []
  ) {
    self.name = name
    self.columns = columns
    self.isStrict = isStrict
    self.isWithoutRowID = isWithoutRowID
    self.indexes = indexes
    self.constraints = (compositePrimaryKey.isEmpty ? [] : [.primaryKey(compositePrimaryKey)]) + constraints
  }

  /// The primary key declared as a table constraint (more than one column), or none; a
  /// single-column key is declared on its column.
  public var compositePrimaryKey: [String] {
    get {
      constraints.lazy.compactMap { constraint -> [String]? in
        if case .primaryKey(let columns) = constraint { columns } else { nil }
      }.first ?? []
    }
    set {
      constraints.removeAll { if case .primaryKey = $0 { true } else { false } }
      if !newValue.isEmpty { constraints.insert(.primaryKey(newValue), at: 0) }
    }
  }

  /// The `INTEGER` primary key column, which is the rowid itself; nil when the table keeps a
  /// rowid of its own.
  public var integerKey: ColumnSchema? {
    columns.first { $0.primaryKey != nil && $0.type == .integer }
  }

  /// The column called `name`, if any.
  public func column(named name: String) -> ColumnSchema? {
    columns.first { $0.name == name }
  }

  /// The sets of columns whose values no two rows share, beside the rowid: the primary key when
  /// it is not the rowid itself (an `INTEGER` key of a rowid table is), `UNIQUE` columns and
  /// constraints, and unique indexes on columns alone. A partial index is counted whole, which
  /// only names more rows than can conflict.
  public var uniqueKeys: [[String]] {
    var keys: [[String]] = []
    func add(_ columns: [String]) {
      if !columns.isEmpty, !keys.contains(columns) { keys.append(columns) }
    }
    for column in columns where column.primaryKey != nil && (column.type != .integer || isWithoutRowID) {
      add([column.name])
    }
    for constraint in constraints {
      switch constraint {
      case .primaryKey(let columns), .unique(_, let columns, _): add(columns)
      case .check, .foreignKey, .raw: break
      }
    }
    for column in columns where column.isUnique { add([column.name]) }
    for index in indexes where index.isUnique && !index.hasExpressions { add(index.columns) }
    return keys
  }
}

/// A column: type, constraints, default and reference.
public struct ColumnSchema: Hashable, Sendable {
  /// A single-column primary key.
  public struct PrimaryKey: Hashable, Sendable {
    /// Whether the key is `AUTOINCREMENT`.
    public var isAutoincrement: Bool
    /// The `ON CONFLICT` resolution of the key constraint.
    public var onConflict: ConflictResolution?

    /// A key, plain by default.
    public init(isAutoincrement: Bool = false, onConflict: ConflictResolution? = nil) {
      self.isAutoincrement = isAutoincrement
      self.onConflict = onConflict
    }
  }

  /// The column's name.
  public var name: String
  /// The declared type.
  public var type: SQLType
  public var primaryKey: PrimaryKey?
  /// Whether the column is `NOT NULL`.
  public var isNotNull: Bool
  /// The `ON CONFLICT` resolution of the `NOT NULL` constraint: `REPLACE` for UUID keys.
  public var notNullOnConflict: ConflictResolution?
  /// Whether the column is `UNIQUE`.
  public var isUnique: Bool
  /// The `COLLATE` clause.
  public var collation: Collation?
  /// The `DEFAULT` clause.
  public var defaultValue: ColumnDefault?
  /// The foreign key, if the column references another table.
  public var references: ForeignKey?
  /// Constraints beyond the above: `GENERATED` (which models declare with `@Generated`), and
  /// `CHECK`s and others models cannot declare, which migrations keep.
  public var otherConstraints: [ColumnConstraint]

  /// The `GENERATED ALWAYS AS` constraint, for a column the database computes.
  public var generated: ColumnConstraint? {
    otherConstraints.first { if case .generated = $0 { true } else { false } }
  }

  /// Whether the database computes the column's values.
  public var isGenerated: Bool { generated != nil }

  /// A column; only the name and type are required.
  public init(
    name: String, type: SQLType, primaryKey: PrimaryKey? = nil, isNotNull: Bool = false,
    notNullOnConflict: ConflictResolution? = nil, isUnique: Bool = false, collation: Collation? = nil,
    defaultValue: ColumnDefault? = nil, references: ForeignKey? = nil, otherConstraints: [ColumnConstraint] = []
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

/// A column's reference to another table's column.
public struct ForeignKey: Hashable, Sendable {
  /// The referenced table.
  public var table: String
  /// The referenced column.
  public var column: String
  /// The `ON DELETE` action, or nil for SQLite's default (no action).
  public var onDelete: ReferentialAction?
  /// The `ON UPDATE` action, or nil for SQLite's default.
  public var onUpdate: ReferentialAction?

  /// A reference; the actions default to SQLite's.
  public init(table: String, column: String, onDelete: ReferentialAction? = nil, onUpdate: ReferentialAction? = nil) {
    self.table = table
    self.column = column
    self.onDelete = onDelete
    self.onUpdate = onUpdate
  }
}

/// An index made with `CREATE INDEX`.
public struct IndexSchema: Hashable, Sendable {
  /// The index's name.
  public var name: String
  /// The indexed table.
  public var table: String
  /// The indexed columns, in order.
  public var columns: [String]
  /// Whether the index is `UNIQUE`.
  public var isUnique: Bool
  /// The `WHERE` clause of a partial index.
  public var condition: String?
  /// Whether the index also indexes expressions (`lower("name")`), which ``columns`` leaves out:
  /// models cannot declare such an index, so it is the migrations', kept as they wrote it.
  public var hasExpressions: Bool

  /// An index; plain and total by default.
  public init(
    name: String, table: String, columns: [String], isUnique: Bool = false, condition: String? = nil,
    hasExpressions: Bool = false
  ) {
    self.name = name
    self.table = table
    self.columns = columns
    self.isUnique = isUnique
    self.condition = condition
    self.hasExpressions = hasExpressions
  }

  /// The name the generator gives the index on `columns` of `table`.
  public static func conventionalName(table: String, columns: [String]) -> String {
    "index_\(table)_on_\(columns.joined(separator: "_"))"
  }
}
