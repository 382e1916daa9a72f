/// The Swift side of the models: what the Swift emitter needs to write each conformance.
public struct ModelSet: Sendable {
  /// The tables, in the order the files declare them.
  public var tables: [TableModel]
  /// The selections, in the order the files declare them.
  public var selections: [SelectionModel]
  /// Enums used as columns that do not declare `QueryBindable` themselves.
  public var bindableEnums: [EnumModel]
  /// The schema the main database's tables ask for, in creation order, with the declared
  /// objects (full-text indexes, views, triggers).
  public var schema: Schema
  /// The schema of each attached database the models name (`// @Table(schema: "cache")`), by
  /// that name: each database has tables of its own, which may share a name with another's.
  public var attachedSchemas: [String: Schema] = [:]
  /// Problems that did not stop the translation.
  public var warnings: [Diagnostic]
  /// Where each declared full-text index, view and trigger is declared, by folded name.
  public var objectLocations: [String: SourceLocation] = [:]
  /// The SQL functions the module writes in Swift, which migrations may call.
  public var functions: [AppFunction] = []
  /// The Swift functions annotated `// @DatabaseFunction`, whose SQL functions the generator
  /// writes.
  public var databaseFunctions: [DatabaseFunctionModel] = []
  /// The database the schema is for.
  public var dialect: DatabaseDialect = .sqlite

  /// How that database declares, changes and checks the schema.
  var schemaDialect: any SchemaDialect { dialect.schemaDialect(functions: functions) }

  /// The files that declare models, in order.
  public var modelFiles: [String] {
    var seen: Set<String> = []
    return (tables.map(\.location.path) + selections.map(\.location.path) + bindableEnums.map(\.location.path))
      .filter { seen.insert($0).inserted }
      .sorted()
  }

  /// A model set; the translator builds these.
  public init(
    tables: [TableModel], selections: [SelectionModel], bindableEnums: [EnumModel], schema: Schema,
    warnings: [Diagnostic] = []
  ) {
    self.tables = tables
    self.selections = selections
    self.bindableEnums = bindableEnums
    self.schema = schema
    self.warnings = warnings
  }
}

/// The access modifier generated members get.
public enum MemberAccess: String, Sendable, Comparable {
  case `internal` = ""
  case `package` = "package "
  case `public` = "public "

  private var rank: Int {
    switch self {
    case .internal: 0
    case .package: 1
    case .public: 2
    }
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A struct that conforms to `Table`.
public struct TableModel: Sendable {
  /// The qualified Swift name: `Player`, `Outer.Inner`.
  public var swiftName: String
  /// Where the type is declared.
  public var location: SourceLocation
  /// The access of the generated type-level members.
  public var access: MemberAccess
  /// The SQL table name.
  public var tableName: String
  /// The attached database the table is in (`@Table(schema: "cache")`); nil for the main one.
  public var schemaName: String?
  /// The table's name before `@Renamed(from:)`, for the migration that renames it.
  public var previousTableName: String?
  /// The columns, in declaration order.
  public var columns: [ColumnModel]
  /// The index in `columns` of the primary key, if any.
  public var primaryKeyIndex: Int?
  /// Whether the database fills in the key when an insert leaves it out: an integer or UUID key
  /// that references no other table. The draft's key is optional only then.
  public var keyIsAssignedByDatabase: Bool
  /// Whether the migrations alone make the table (`// @Unmanaged`): the planner never creates,
  /// changes or drops it, and only checks that the model's columns are in it.
  public var isUnmanaged = false
  /// What the model's rows are stored in: a table, a full-text index or a view.
  public var kind = Kind.table
  /// How the table's rows sync, for a `// @Synced` table; nil for one that does not sync.
  public var sync: SyncModel?
  /// The rules that keep its enums stored as column groups readable, one per property that is
  /// or holds one; the table's `CHECK`s say the same.
  public var caseRules: [CaseRule] = []

  /// What stores a model's rows.
  public enum Kind: Sendable, Equatable {
    case table
    /// An FTS5 virtual table (`struct ItemText: FTS5`); its `rowid` property is the key. With a
    /// content table, triggers write it, so it has no `Draft`.
    case fullTextIndex(hasContentTable: Bool)
    /// A view (`// @View(raw:)`): read-only, without a `Draft`.
    case view

    /// Whether the app inserts the model's rows, with a `Draft`.
    public var isWritable: Bool {
      switch self {
      case .table: true
      case .fullTextIndex(let hasContentTable): !hasContentTable
      case .view: false
      }
    }
  }

  public var primaryKey: ColumnModel? { primaryKeyIndex.map { columns[$0] } }

  /// The property whose column group is the primary key (`let id: MetadataID`), if one is.
  public var groupKeyProperty: String?

  /// The group that is the primary key, if one is.
  public var groupKey: ColumnGroupModel? {
    groupKeyProperty.flatMap { name in columns.lazy.compactMap(\.group).first { $0.propertyName == name } }
  }
}

/// A stored property that is a column.
public struct ColumnModel: Sendable {
  /// The Swift property name.
  public var propertyName: String
  /// The access of the members generated for the property: the lower of the model's and the
  /// property's.
  public var access: MemberAccess
  /// The lowest access of the types the property's type names, for initializers that take it.
  public var typeAccess: MemberAccess
  /// Where the property is declared.
  public var location: SourceLocation
  /// The SQL column name.
  public var columnName: String
  /// The column's name before `@Renamed(from:)`, for the migration that renames it.
  public var previousColumnName: String?
  /// Whether a migration that converts the column's values to another type may change some
  /// (`@AllowLossyConversion`); otherwise it stops on the first that would not convert exactly.
  public var allowsLossyConversion = false
  /// The SQL value the rows a table already has get when the next migration adds this column
  /// (`@Backfill(raw:)`): for a non-optional property without a default.
  public var backfill: String?
  /// The type the column's values are read as, for the schema snapshot: the built-in type
  /// (`UUID`), the enum (`Status`) or the representation, whatever alias or key type names it.
  public var storedType = ""
  /// What the model's decoder reads beyond the SQL type, if anything.
  public var valueFormat: ValueFormat?
  /// The property's type as written (canonical): `Game.ID`, `String?`.
  public var propertyType: String
  /// The type of the column's values: the property type, or its `@Column(as:)` representation.
  public var valueType: String
  /// The representation type, when `@Column(as:)` gives one; it wraps the non-optional type.
  public var representation: String?
  public var isOptional: Bool
  /// The Swift default value as written in the model, for the draft.
  public var defaultExpression: String?
  /// Whether the database computes the column (`@Generated(raw:)`): read like any column, never
  /// written.
  public var isGenerated = false
  /// The column group the column belongs to, for a field of a `Selection` used as a property.
  public var group: ColumnGroupModel?
}

/// A property of a table whose type is a `Selection` of columns: a column group, stored as the
/// selection's columns under their own names.
public struct ColumnGroupModel: Sendable, Equatable {
  /// The table's property.
  public var propertyName: String
  /// The selection's Swift type.
  public var swiftType: String
  /// Whether the property is optional: every column of the group is nullable then.
  public var isOptional: Bool
  /// The access of the members generated for the property.
  public var access: MemberAccess
}

/// A struct that conforms to `Selection`: a row type for query results.
public struct SelectionModel: Sendable {
  /// The qualified Swift name.
  public var swiftName: String
  /// Where the type is declared.
  public var location: SourceLocation
  /// The access of the generated members.
  public var access: MemberAccess
  /// The stored properties, in declaration order.
  public var fields: [FieldModel]
  /// The name of the selection as the table of a common table expression, when its fields are
  /// all columns; nil when a field is a whole table or selection.
  public var tableName: String?
  /// The fields as the columns of that table.
  public var columns: [ColumnModel]
  /// For an enum stored in a table's columns (`enum Kind: Selection { case note(String) … }`),
  /// its cases in order; empty for a struct.
  public var cases: [CaseModel] = []
}

/// A case of a `Selection` enum: its one associated value is stored in columns of its own, which
/// are NULL in every row of another case.
public struct CaseModel: Sendable {
  /// The case's name: the column's name, for a value stored in one column.
  public var name: String
  /// The associated value's label, if it has one (`case interval(startDate: Date)`).
  public var label: String?
  /// The associated value's Swift type.
  public var valueType: String
}

/// A field of a selection.
public struct FieldModel: Sendable {
  /// The Swift property name.
  public var name: String
  /// The lower of the selection's and the property's access.
  public var access: MemberAccess
  /// The lowest access of the types the field's type names.
  public var typeAccess: MemberAccess
  /// The type the field's expression has: the property type or its representation.
  public var valueType: String
  /// That type without optionality.
  public var unwrappedValueType: String
  public var isOptional: Bool
}

/// A raw-value enum used as a column, which the generator makes `QueryBindable`.
public struct EnumModel: Sendable {
  /// The qualified Swift name.
  public var swiftName: String
  /// Where the enum is declared.
  public var location: SourceLocation
  /// The enum's access.
  public var access: MemberAccess
}

/// An SQL function the app writes in Swift (`ScalarFunction("name") { … }`), known to the
/// generator by its name: the planner's and the build plugin's scratch databases register a
/// stand-in of that name, so that migrations that call it can be run and checked there.
public struct AppFunction: Sendable, Hashable {
  /// The function's name in SQL.
  public var name: String
  /// Whether it is an aggregate (`AggregateFunction`).
  public var isAggregate: Bool
  /// Where it is declared.
  public var location: SourceLocation
}
