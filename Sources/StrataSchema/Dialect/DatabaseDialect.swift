/// The database a module's migrations are written for: a target's setting (`strata.json`'s
/// `"dialect"`, or `--dialect`), which the models do not change.
public enum DatabaseDialect: String, Sendable, CaseIterable {
  case sqlite
  case postgresql

  /// The CREATE statements of `schema` in the database's SQL.
  public func sql(_ schema: Schema) -> String {
    switch self {
    case .sqlite: return SQLRenderer.schema(schema)
    case .postgresql:
      let dialect = PostgreSQLDialect()
      return schema.tables.map { table in ([dialect.createTable(table)] + table.indexes.map(dialect.createIndex)).joined(separator: "\n") }
        .joined(separator: "\n\n")
    }
  }

  /// The dialect's answers, with the app's SQL functions for SQLite's scratch databases.
  func schemaDialect(functions: [AppFunction] = []) -> any SchemaDialect {
    switch self {
    case .sqlite: SQLiteDialect(functions: functions)
    case .postgresql: PostgreSQLDialect()
    }
  }
}
