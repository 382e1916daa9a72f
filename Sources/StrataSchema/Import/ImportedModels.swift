import StrataSQL

/// The models `strata import` writes for an existing database: one table model per table, the
/// step between reading the database (``DatabaseImporter``) and rendering Swift or a schema file
/// (``ImportedModelRenderer``).
struct ImportedTable {
  var tableName: String
  var typeName: String
  /// Why the migrations keep the table to themselves (`@Unmanaged`); empty for a table the
  /// models manage.
  var unmanagedReasons: [String]
  var columns: [ImportedColumn]
  /// Indexes on several columns, and unique or partial indexes, named by the convention.
  var indexes: [ImportedIndex]
  /// The properties of a primary key on several columns.
  var compositeKey: [String] = []
  /// The table's `CHECK` expressions.
  var checks: [String] = []
  /// Whether the model reads a view rather than a table.
  var isView = false

  /// Whether the model says its columns' types only, having said more than the generator
  /// accepts of the table.
  private(set) var saysColumnsOnly = false

  var isUnmanaged: Bool { !unmanagedReasons.isEmpty }

  /// Says the columns' types only: no references, indexes, uniqueness, collations, raw defaults
  /// or checks.
  mutating func sayColumnsOnly() {
    saysColumnsOnly = true
    indexes = []
    checks = []
    compositeKey = []
    for index in columns.indices {
      if case .key = columns[index].type { columns[index].type = columns[index].storedType }
      columns[index].rawDefault = nil
      columns[index].isUnique = false
      columns[index].isIndexed = false
      columns[index].collation = nil
      columns[index].onDelete = nil
    }
  }

  /// The property that is the primary key, if the table has a single-column key.
  var keyProperty: String? { columns.first(where: \.isPrimaryKey)?.propertyName }
}

/// A column as a property.
struct ImportedColumn {
  var columnName: String
  var propertyName: String
  var type: ImportedType
  var isOptional: Bool
  var isPrimaryKey: Bool
  var defaultValue: ImportedDefault?
  /// A default no Swift literal says, as SQL.
  var rawDefault: String?
  var isUnique = false
  var isIndexed = false
  var collation: Collation?
  /// The `onDelete:` to write when the reference's action is not the convention's.
  var onDelete: ReferentialAction?
  /// The type the column stores, for a key of another model read on its own.
  var storedType: ImportedType = .string
}

/// A property's type, without optionality.
enum ImportedType: Equatable {
  case int, double, string, bool, date, data, uuid, storedValue
  /// The key of another table's model: `Game.ID`, a foreign key.
  case key(of: String)

  var swift: String {
    switch self {
    case .int: "Int"
    case .double: "Double"
    case .string: "String"
    case .bool: "Bool"
    case .date: "Date"
    case .data: "Data"
    case .uuid: "UUID"
    case .storedValue: "StoredValue"
    case .key(let type): SwiftLiteral.identifier(type) + ".ID"
    }
  }

  var schemaFile: String {
    switch self {
    case .string: "Text"
    case .data: "Bytes"
    default: swift
    }
  }
}

/// A column's literal default, as the property's initial value.
enum ImportedDefault: Equatable {
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)

  var swift: String {
    switch self {
    case .string(let text): SwiftLiteral.string(text)
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .bool(let value): String(value)
    }
  }
}

/// `@Index(on:)` or `@Unique(on:)` above a model.
struct ImportedIndex: Equatable {
  var properties: [String]
  var isUnique: Bool
  /// The condition of a partial index, as SQL.
  var condition: String?
}
