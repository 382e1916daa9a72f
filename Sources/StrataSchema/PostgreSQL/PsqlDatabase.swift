import Foundation
import StrataSQL

/// A database on a PostgreSQL server, reached through psql: a scratch one of the planner's, dropped when the planner
/// lets it go, or (without a name) the one the server's URL names, which is left as it is.
package final class PsqlDatabase: ScratchDatabase, Sendable {
  let server: PostgreSQLServer
  package let name: String?

  init(server: PostgreSQLServer, name: String?) {
    self.server = server
    self.name = name
  }

  deinit {
    if let name { server.drop(name) }
  }

  /// A URL for the database, for clients other than psql.
  package var url: String { server.url(of: name ?? "postgres") }

  /// Runs SQL, stopping at the first error; returns what it printed.
  @discardableResult
  func run(_ sql: String) throws -> String {
    try server.run(sql, database: name)
  }

  func execute(_ sql: String) throws {
    try run(sql)
  }

  /// Runs a migration file in one transaction, as the migrator will.
  ///
  /// - Throws: ``DiagnosticsError`` at the file's line of the statement PostgreSQL refused.
  func apply(_ file: MigrationFiles.File) throws {
    do {
      // On one line with the file's first, so that psql's line numbers are the file's.
      try run("BEGIN; " + file.sql + "\n;COMMIT;")
    } catch let error as PsqlError {
      throw DiagnosticsError([
        Diagnostic(
          .error, "PostgreSQL refuses this migration: \(error.serverMessage)",
          at: SourceLocation(path: file.path, line: error.line ?? 1, column: 1))
      ])
    }
  }

  func introspect() throws -> SchemaIntrospector.Introspection {
    try PostgreSQLIntrospector.introspect(self)
  }

  func tableNames() throws -> [String] {
    try run("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
      .split(separator: "\n").map(String.init)
  }

  func serialized() throws -> [UInt8]? { nil }
  var holdsSchemaOnly: Bool { false }

  func viewColumns(_ name: String) throws -> [ColumnSchema]? {
    let rows = try run(
      "SELECT a.attname || chr(31) || format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        + "JOIN pg_namespace n ON n.oid = c.relnamespace "
        + "WHERE n.nspname = 'public' AND c.relkind = 'v' AND c.relname = \(SQLQuoting.string(name)) AND a.attnum > 0 ORDER BY a.attnum")
    let columns = rows.split(separator: "\n").map { line in
      let parts = line.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
      return ColumnSchema(name: parts[0], type: .other(PostgreSQLIntrospector.typeName(parts.count > 1 ? parts[1] : "")))
    }
    return columns.isEmpty ? nil : columns
  }
}
