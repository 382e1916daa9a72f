import StrataSQL

/// SQLite's view that keeps a renamed table's old name for older app versions (``Expansion``):
/// it reads the table's columns as they were, and triggers write an older version's inserts,
/// updates and deletes through to the table, finding rows by the primary key.
///
/// A view's row has no default of its own, so a column an insert leaves out arrives as NULL: the
/// trigger gives it the table's default instead.
enum KeptTableView {
  static func expand(_ expansion: Expansion, of table: TableSchema?) -> [String] {
    guard let (old, new) = expansion.renamedTable, let table else { return [] }
    let (view, target) = (SQLQuoting.identifier(old), SQLQuoting.identifier(new))
    let viewColumns = Set(expansion.viewColumns.map(SQLName.folded))
    let read = table.columns.filter { viewColumns.contains(SQLName.folded($0.name)) }
    let columns = read.filter { !$0.isGenerated }
    let names = columns.map { SQLQuoting.identifier($0.name) }
    let key = table.compositePrimaryKey.isEmpty ? table.columns.filter { $0.primaryKey != nil }.map(\.name) : table.compositePrimaryKey
    let row = key.map { "\(SQLQuoting.identifier($0)) = OLD.\(SQLQuoting.identifier($0))" }.joined(separator: " AND ")
    func value(_ column: ColumnSchema) -> String {
      let value = "NEW.\(SQLQuoting.identifier(column.name))"
      return column.defaultValue.map { "coalesce(\(value), \($0.sql))" } ?? value
    }
    func trigger(_ suffix: String) -> String { SQLQuoting.identifier(expansion.triggerName(suffix)) }
    return [
      "CREATE VIEW \(view) AS SELECT \(read.map { SQLQuoting.identifier($0.name) }.joined(separator: ", ")) FROM \(target);",
      """
      CREATE TRIGGER \(trigger("insert")) INSTEAD OF INSERT ON \(view) FOR EACH ROW
      BEGIN
        INSERT INTO \(target) (\(names.joined(separator: ", "))) VALUES (\(columns.map(value).joined(separator: ", ")));
      END;
      """,
      """
      CREATE TRIGGER \(trigger("update")) INSTEAD OF UPDATE ON \(view) FOR EACH ROW
      BEGIN
        UPDATE \(target) SET \(names.map { "\($0) = NEW.\($0)" }.joined(separator: ", ")) WHERE \(row);
      END;
      """,
      """
      CREATE TRIGGER \(trigger("delete")) INSTEAD OF DELETE ON \(view) FOR EACH ROW
      BEGIN
        DELETE FROM \(target) WHERE \(row);
      END;
      """,
    ]
  }
}
