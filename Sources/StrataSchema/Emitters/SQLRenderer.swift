/// Renders the schema model as DDL, in the layout of the seeds' hand-written migration: one column per line,
/// constraints in a fixed order, `STRICT` tables, indexes after their table.
public enum SQLRenderer {
  /// Every table and its indexes, in the schema's order, each statement ending with `;`.
  public static func schema(_ schema: Schema) -> String {
    schema.tables.map { table in
      ([createTable(table)] + table.indexes.map(createIndex)).joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// `CREATE TABLE "name" (…) STRICT;`, one column or constraint per line.
  public static func createTable(_ table: TableSchema) -> String {
    var lines = table.columns.map { "  " + columnDefinition($0) }
    if !table.compositePrimaryKey.isEmpty {
      lines.append("  PRIMARY KEY (\(table.compositePrimaryKey.map(SQLLiteral.identifier).joined(separator: ", ")))")
    }
    lines += table.otherConstraints.map { "  " + $0 }
    var options: [String] = []
    if table.isStrict { options.append("STRICT") }
    if table.isWithoutRowID { options.append("WITHOUT ROWID") }
    return "CREATE TABLE \(SQLLiteral.identifier(table.name)) (\n"
      + lines.joined(separator: ",\n")
      + "\n)" + (options.isEmpty ? "" : " " + options.joined(separator: ", ")) + ";"
  }

  /// A column's definition: name, type, then key, `NOT NULL`, `UNIQUE`, `COLLATE`, `DEFAULT`
  /// and `REFERENCES` in that order.
  public static func columnDefinition(_ column: ColumnSchema) -> String {
    var parts = [SQLLiteral.identifier(column.name)]
    if column.type != .none { parts.append(column.type.sql) }
    if let key = column.primaryKey {
      parts.append("PRIMARY KEY")
      if let conflict = key.onConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
      if key.isAutoincrement { parts.append("AUTOINCREMENT") }
    }
    if column.isNotNull {
      parts.append("NOT NULL")
      if let conflict = column.notNullOnConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
    }
    if column.isUnique { parts.append("UNIQUE") }
    if let collation = column.collation { parts.append("COLLATE \(collation.sql)") }
    if let value = column.defaultValue { parts.append("DEFAULT \(value.sql)") }
    if let reference = column.references {
      parts.append("REFERENCES \(SQLLiteral.identifier(reference.table))(\(SQLLiteral.identifier(reference.column)))")
      if let action = reference.onDelete { parts.append("ON DELETE \(action.rawValue)") }
      if let action = reference.onUpdate { parts.append("ON UPDATE \(action.rawValue)") }
    }
    parts += column.otherConstraints
    return parts.joined(separator: " ")
  }

  /// `CREATE [UNIQUE] INDEX "name" ON "table"("columns") [WHERE …];`
  public static func createIndex(_ index: IndexSchema) -> String {
    var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQLLiteral.identifier(index.name)) ON "
      + "\(SQLLiteral.identifier(index.table))(\(index.columns.map(SQLLiteral.identifier).joined(separator: ", ")))"
    if let condition = index.condition { sql += " WHERE \(condition)" }
    return sql + ";"
  }

  /// `ALTER TABLE … ADD COLUMN …;`
  public static func addColumn(_ column: ColumnSchema, to table: String) -> String {
    "ALTER TABLE \(SQLLiteral.identifier(table)) ADD COLUMN \(columnDefinition(column));"
  }
}
