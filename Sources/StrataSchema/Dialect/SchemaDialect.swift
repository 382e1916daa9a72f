/// What the generator asks of a database flavour. Translation says what each column holds
/// (``ColumnValueType``) and which keys the database assigns; the dialect decides how the
/// database declares them, what it can change in place and what needs a rebuild, and writes the
/// statements of each migration step. SQLite's is ``SQLiteDialect``, in `SQLite/`.
protocol SchemaDialect: Sendable {
  /// The declared type of a column that holds `type`.
  func columnType(for type: ColumnValueType) -> SQLType

  /// `column` (named and typed) as a primary key that the database fills in when an insert
  /// leaves it out; nil when the database assigns no keys of `type`.
  func assignedKey(_ column: ColumnSchema, holding type: ColumnValueType) -> ColumnSchema?

  /// Why the database cannot add `column` to a table that has rows without rebuilding it; nil
  /// when it can.
  func cannotAdd(_ column: ColumnSchema) -> String?

  /// `CREATE TABLE` with its columns and constraints.
  func createTable(_ table: TableSchema) -> String

  /// `CREATE INDEX`.
  func createIndex(_ index: IndexSchema) -> String

  /// The statements that make `step`, given the schema they start from (for what a rebuild
  /// must drop and recreate around a table).
  func statements(for step: SchemaChange, from current: SchemaIntrospector.Introspection) -> [String]

  /// The comment above a migration's checks, which says how a failing one reports.
  var checksComment: String { get }
}
