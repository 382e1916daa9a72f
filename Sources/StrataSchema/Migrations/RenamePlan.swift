/// The renames the models ask for with `@Renamed(from:)`: the first step of a migration, run
/// with `ALTER TABLE … RENAME`, which also updates the foreign keys, indexes, triggers and views
/// that mention the old names. An annotation whose rename is already done asks for nothing, so it
/// can stay in the model.
struct RenamePlan {
  struct TableRename: Equatable {
    var from: String
    var to: String
  }

  struct ColumnRename: Equatable {
    /// The table's name once the table renames are done.
    var table: String
    var from: String
    var to: String
  }

  var tables: [TableRename] = []
  var columns: [ColumnRename] = []
  var problems: [SchemaChanges.Problem] = []

  var isEmpty: Bool { tables.isEmpty && columns.isEmpty }

  init(current: Schema, desired: Schema, models: [String: TableModel]) {
    let currentTables = Dictionary(current.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let desiredNames = Set(desired.tables.map { SQLName.folded($0.name) })
    var claimed: Set<String> = []
    for table in desired.tables {
      let model = models[table.name]
      var existing = currentTables[SQLName.folded(table.name)]
      if existing == nil, let previous = model?.previousTableName {
        let folded = SQLName.folded(previous)
        if desiredNames.contains(folded) {
          problems.append(
            .init(
              table: table.name, column: nil,
              message: "@Renamed(from: \(NameRules.display(previous))): a model still declares the table \(NameRules.display(previous)); rename only one of them"))
        } else if let old = currentTables[folded], claimed.insert(folded).inserted {
          tables.append(TableRename(from: old.name, to: table.name))
          existing = old
        }
      }
      guard let existing else { continue }
      let currentColumns = Set(existing.columns.map { SQLName.folded($0.name) })
      let desiredColumns = Set(table.columns.map { SQLName.folded($0.name) })
      for column in model?.columns ?? [] {
        guard let previous = column.previousColumnName, !currentColumns.contains(SQLName.folded(column.columnName)) else {
          continue
        }
        if desiredColumns.contains(SQLName.folded(previous)) {
          problems.append(
            .init(
              table: table.name, column: column.columnName,
              message: "@Renamed(from: \(NameRules.display(previous))): the model still has a column \(NameRules.display(previous)); rename only one of them"))
        } else if let old = existing.columns.first(where: { SQLName.folded($0.name) == SQLName.folded(previous) }) {
          columns.append(ColumnRename(table: table.name, from: old.name, to: column.columnName))
        }
      }
    }
  }

  /// The statements, tables first so that column renames use the new table names.
  var statements: [String] {
    tables.map { "ALTER TABLE \(SQLLiteral.identifier($0.from)) RENAME TO \(SQLLiteral.identifier($0.to));" }
      + columns.map {
        "ALTER TABLE \(SQLLiteral.identifier($0.table)) RENAME COLUMN \(SQLLiteral.identifier($0.from)) TO \(SQLLiteral.identifier($0.to));"
      }
  }
}
