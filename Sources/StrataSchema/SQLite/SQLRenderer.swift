import StrataSQL

/// Renders the schema model as DDL, in the layout of a hand-written SQLiteData migration: one column per line,
/// constraints in a fixed order, `STRICT` tables, indexes after their table.
public enum SQLRenderer {
  /// Every table and its indexes, then the declared objects, in the schema's order, each
  /// statement ending with `;`.
  public static func schema(_ schema: Schema) -> String {
    (schema.tables.map { table in
      ([createTable(table)] + table.indexes.map(createIndex)).joined(separator: "\n")
    } + schema.objects.map { create($0).joined(separator: "\n") }).joined(separator: "\n\n")
  }

  /// `CREATE TABLE "name" (…) STRICT;`, one column or constraint per line.
  public static func createTable(_ table: TableSchema) -> String {
    var lines = table.columns.map { "  " + columnDefinition($0) }
    lines += table.constraints.map { "  " + constraint($0) }
    var options: [String] = []
    if table.isStrict { options.append("STRICT") }
    if table.isWithoutRowID { options.append("WITHOUT ROWID") }
    return "CREATE TABLE \(SQLQuoting.identifier(table.name)) (\n"
      + lines.joined(separator: ",\n")
      + "\n)" + (options.isEmpty ? "" : " " + options.joined(separator: ", ")) + ";"
  }

  /// A column's definition: name, type, then key, `NOT NULL`, `UNIQUE`, `COLLATE`, `DEFAULT`
  /// and `REFERENCES` in that order.
  public static func columnDefinition(_ column: ColumnSchema) -> String {
    var parts = [SQLQuoting.identifier(column.name)]
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
    if let reference = column.references { parts.append(references(reference)) }
    parts += column.otherConstraints.map(constraint)
    return parts.joined(separator: " ")
  }

  /// `REFERENCES "table"("column")` and its actions.
  static func references(_ reference: ForeignKey) -> String {
    var sql = "REFERENCES \(SQLQuoting.identifier(reference.table))(\(SQLQuoting.identifier(reference.column)))"
    if let action = reference.onDelete { sql += " ON DELETE \(action.rawValue)" }
    if let action = reference.onUpdate { sql += " ON UPDATE \(action.rawValue)" }
    return sql
  }

  /// A table constraint as its table's DDL declares it.
  public static func constraint(_ constraint: TableConstraint) -> String {
    switch constraint {
    case .primaryKey(let columns):
      return "PRIMARY KEY (\(columns.map(SQLQuoting.identifier).joined(separator: ", ")))"
    case .check(let check):
      return Self.check(check)
    case .unique(let name, let columns, let onConflict):
      return constraintName(name) + "UNIQUE (\(columns.map(SQLQuoting.identifier).joined(separator: ", ")))"
        + (onConflict.map { " ON CONFLICT \($0.rawValue)" } ?? "")
    case .foreignKey(let name, let columns, let table, let referenced, let onDelete, let onUpdate):
      var sql = constraintName(name) + "FOREIGN KEY (\(columns.map(SQLQuoting.identifier).joined(separator: ", "))) "
        + "REFERENCES \(SQLQuoting.identifier(table)) (\(referenced.map(SQLQuoting.identifier).joined(separator: ", ")))"
      if let onDelete { sql += " ON DELETE \(onDelete.rawValue)" }
      if let onUpdate { sql += " ON UPDATE \(onUpdate.rawValue)" }
      return sql
    case .raw(let sql):
      return sql
    }
  }

  /// A column constraint as its column's definition declares it.
  public static func constraint(_ constraint: ColumnConstraint) -> String {
    switch constraint {
    case .check(let check): Self.check(check)
    case .generated(let expression, let storage): "GENERATED ALWAYS AS (\(expression))" + (storage.map { " \($0.rawValue)" } ?? "")
    case .raw(let sql): sql
    }
  }

  private static func check(_ check: CheckConstraint) -> String {
    constraintName(check.name) + "CHECK (\(check.expression))"
  }

  private static func constraintName(_ name: String?) -> String {
    name.map { "CONSTRAINT \(SQLQuoting.identifier($0)) " } ?? ""
  }

  /// `CREATE [UNIQUE] INDEX "name" ON "table"("columns") [WHERE …];`
  public static func createIndex(_ index: IndexSchema) -> String {
    var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQLQuoting.identifier(index.name)) ON "
      + "\(SQLQuoting.identifier(index.table))(\(index.columns.map(SQLQuoting.identifier).joined(separator: ", ")))"
    if let condition = index.condition { sql += " WHERE \(condition)" }
    return sql + ";"
  }

  /// `ALTER TABLE … ADD COLUMN …;`
  public static func addColumn(_ column: ColumnSchema, to table: String) -> String {
    "ALTER TABLE \(SQLQuoting.identifier(table)) ADD COLUMN \(columnDefinition(column));"
  }
}
