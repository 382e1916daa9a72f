/// The differences between the schema the migrations produce and the one the models ask for.
///
/// Additive changes (new tables, new columns that existing rows can take, new indexes) become a
/// migration. Any other difference is reported, one line each, and stops the planner.
struct SchemaDiff {
  enum Change: Equatable {
    case createTable(String)
    case addColumn(table: String, column: String)
    case createIndex(table: String, index: String)
  }

  /// A difference that needs a migration the generator does not write yet.
  struct Conflict: Equatable {
    var table: String
    /// The column concerned, for pointing at its property.
    var column: String?
    var message: String
  }

  var changes: [Change] = []
  var conflicts: [Conflict] = []

  var isEmpty: Bool { changes.isEmpty && conflicts.isEmpty }

  init(current: Schema, desired: Schema) {
    let currentTables = Dictionary(current.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let desiredNames = Set(desired.tables.map(\.name))
    for table in desired.tables {
      guard let existing = currentTables[table.name] else {
        changes.append(.createTable(table.name))
        continue
      }
      compare(existing, table)
    }
    for table in current.tables where !desiredNames.contains(table.name) {
      conflicts.append(
        Conflict(
          table: table.name, column: nil,
          message: "table \"\(table.name)\" is in the migrations but no model declares it; dropping and renaming tables is not supported yet: write that migration by hand, or add the model back"))
    }
  }

  private mutating func compare(_ current: TableSchema, _ desired: TableSchema) {
    let name = desired.name
    func conflict(_ column: String?, _ message: String) {
      conflicts.append(Conflict(table: name, column: column, message: "table \"\(name)\": " + message))
    }
    if current.isStrict != desired.isStrict {
      conflict(nil, "is \(current.isStrict ? "" : "not ")STRICT in the migrations")
    }
    if current.isWithoutRowID != desired.isWithoutRowID {
      conflict(nil, "is \(current.isWithoutRowID ? "" : "not ")WITHOUT ROWID in the migrations")
    }
    if current.compositePrimaryKey != desired.compositePrimaryKey {
      conflict(nil, "has primary key (\(current.compositePrimaryKey.joined(separator: ", "))) in the migrations")
    }
    if current.otherConstraints != desired.otherConstraints {
      conflict(
        nil,
        "has table constraints [\(current.otherConstraints.joined(separator: "; "))] in the migrations but [\(desired.otherConstraints.joined(separator: "; "))] in the models")
    }

    for column in desired.columns {
      guard let existing = current.column(named: column.name) else {
        if let reason = Self.cannotAdd(column) {
          conflict(column.name, "column \"\(column.name)\" cannot be added to existing rows: \(reason)")
        } else {
          changes.append(.addColumn(table: name, column: column.name))
        }
        continue
      }
      for difference in Self.differences(existing, column) {
        conflict(column.name, "column \"\(column.name)\" \(difference)")
      }
    }
    for column in current.columns where desired.column(named: column.name) == nil {
      conflict(
        column.name,
        "column \"\(column.name)\" is in the migrations but not in the model; dropping and renaming columns is not supported yet")
    }

    for index in desired.indexes {
      guard let existing = current.indexes.first(where: { $0.name == index.name }) else {
        changes.append(.createIndex(table: name, index: index.name))
        continue
      }
      if existing != index {
        conflict(
          index.columns.first,
          "index \"\(index.name)\" is \(Self.describe(existing)) in the migrations but \(Self.describe(index)) in the models")
      }
    }
    for index in current.indexes where desired.indexes.allSatisfy({ $0.name != index.name }) {
      // Indexes named by the generator's convention belong to the models; others are
      // hand-written and kept.
      if index.name == IndexSchema.conventionalName(table: name, columns: index.columns) {
        conflict(
          index.columns.first,
          "index \"\(index.name)\" is in the migrations but the model no longer asks for it; dropping indexes is not supported yet")
      }
    }
  }

  /// Why SQLite's `ALTER TABLE ADD COLUMN` cannot add `column`, if it cannot.
  static func cannotAdd(_ column: ColumnSchema) -> String? {
    if column.primaryKey != nil { return "it is the primary key" }
    if column.isUnique { return "it is UNIQUE" }
    if column.isNotNull, column.defaultValue == nil {
      return "it is NOT NULL without a default value; give the property a literal default or make it optional"
    }
    if column.references != nil, let value = column.defaultValue, value != .null {
      return "it references another table and has a default other than NULL"
    }
    if let value = column.defaultValue, !value.isConstant {
      return "its default \(value.sql) is not a constant, which SQLite cannot give existing rows"
    }
    return nil
  }

  private static func differences(_ current: ColumnSchema, _ desired: ColumnSchema) -> [String] {
    var differences: [String] = []
    func describe(_ value: String?) -> String { value ?? "none" }
    if current.type != desired.type {
      differences.append("has type \(current.type.sql) in the migrations but \(desired.type.sql) in the model")
    }
    if current.isNotNull != desired.isNotNull {
      differences.append(
        desired.isNotNull
          ? "is nullable in the migrations but NOT NULL in the model"
          : "is NOT NULL in the migrations but optional in the model")
    }
    if current.primaryKey != desired.primaryKey {
      differences.append(
        "is \(current.primaryKey == nil ? "not " : "")the primary key in the migrations (\(describeKey(current.primaryKey))) but \(describeKey(desired.primaryKey)) in the model")
    }
    if current.notNullOnConflict != desired.notNullOnConflict {
      differences.append(
        "has NOT NULL ON CONFLICT \(describe(current.notNullOnConflict?.rawValue)) in the migrations but \(describe(desired.notNullOnConflict?.rawValue)) in the model")
    }
    if current.defaultValue != desired.defaultValue {
      differences.append(
        "defaults to \(describe(current.defaultValue?.sql)) in the migrations but \(describe(desired.defaultValue?.sql)) in the model")
    }
    if current.isUnique != desired.isUnique {
      differences.append("is \(current.isUnique ? "" : "not ")UNIQUE in the migrations but \(desired.isUnique ? "" : "not ")UNIQUE in the model")
    }
    if current.collation != desired.collation {
      differences.append(
        "has collation \(describe(current.collation?.sql)) in the migrations but \(describe(desired.collation?.sql)) in the model")
    }
    if current.references != desired.references {
      differences.append(
        "references \(describeReference(current.references)) in the migrations but \(describeReference(desired.references)) in the model")
    }
    if current.otherConstraints != desired.otherConstraints {
      differences.append(
        "has constraints [\(current.otherConstraints.joined(separator: " "))] in the migrations but [\(desired.otherConstraints.joined(separator: " "))] in the model")
    }
    return differences
  }

  private static func describeKey(_ key: ColumnSchema.PrimaryKey?) -> String {
    guard let key else { return "no key" }
    var parts = ["PRIMARY KEY"]
    if let conflict = key.onConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
    if key.isAutoincrement { parts.append("AUTOINCREMENT") }
    return parts.joined(separator: " ")
  }

  private static func describeReference(_ reference: ForeignKey?) -> String {
    guard let reference else { return "nothing" }
    var text = "\"\(reference.table)\"(\"\(reference.column)\")"
    if let action = reference.onDelete { text += " ON DELETE \(action.rawValue)" }
    if let action = reference.onUpdate { text += " ON UPDATE \(action.rawValue)" }
    return text
  }

  private static func describe(_ index: IndexSchema) -> String {
    var text = (index.isUnique ? "UNIQUE " : "") + "on (\(index.columns.joined(separator: ", ")))"
    if let condition = index.condition { text += " WHERE \(condition)" }
    return text
  }
}
