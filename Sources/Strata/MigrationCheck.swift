import GRDB

/// The checks generated migrations make before they change a table: when a row holds a value
/// the change cannot keep, the check stops the migration with a message that names the row.
///
/// SQLite (before 3.47) cannot fail a statement with a message built from a row, so the check
/// selects `json_extract('{}', message)`, and SQLite's error for a JSON path that does not start
/// with `$` quotes the path as an SQL string: `JSON path error near 'strata: row 3 holds ''x'''`. The generator's
/// `MigrationGuard` writes these statements; this reads their messages back.
enum MigrationCheck {
  private static let start = "JSON path error near 'strata: "

  /// The message of a generated check that stopped a migration, or nil for another error.
  static func message(of error: DatabaseError) -> String? {
    guard let text = error.message, text.hasPrefix(start), text.hasSuffix("'") else { return nil }
    return String(text.dropFirst(start.count).dropLast()).replacingOccurrences(of: "''", with: "'")
  }
}
