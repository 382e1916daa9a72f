/// A check a migration makes before it changes a table: when a row holds a value the change
/// cannot keep as it is, the migration stops and says which table, column and row, and nothing
/// changes (the migrator runs each migration in one transaction, and the checks come before the
/// table's rows are copied).
///
/// The statement selects, for the first row that breaks the rule, `json_extract('{}', message)`
/// with the message built from that row: a JSON path must start with `$`, so SQLite fails with
/// `JSON path error near '<message>'`. It is the way SQLite (before 3.47, whose `RAISE` takes only
/// a literal) fails a statement with a message that names a row, and it needs nothing registered
/// on the connection, so the migration runs the same in any tool. Every message starts with
/// ``prefix``, which Strata's migrator recognizes to report the message alone.
struct MigrationGuard: Equatable {
  /// The statement.
  var sql: String
  /// When it stops, for the migration's header: `"title" holds duplicates`.
  var condition: String
  /// The table checked, and the column.
  var table: String
  var column: String

  /// The start of every guard's message.
  static let prefix = "strata: "

  /// A part of a message: text, or SQL evaluated on the row.
  private enum Part {
    case text(String)
    case value(String)
  }

  /// `SELECT json_extract('{}', <message>) FROM <table> <rows> LIMIT 1;`, over lines.
  private init(condition: String, message: [Part], table: TableSchema, column: String, rows: String) {
    self.condition = condition
    self.table = table.name
    self.column = column
    var merged: [Part] = []
    for part in [.text(Self.prefix)] + message {
      if case .text(let text) = part, case .text(let previous)? = merged.last {
        merged[merged.count - 1] = .text(previous + text)
      } else {
        merged.append(part)
      }
    }
    let parts = merged.map { part in
      switch part {
      case .text(let text): SQLLiteral.string(text)
      case .value(let sql): sql
      }
    }
    sql = "SELECT json_extract('{}', \(parts.joined(separator: " || ")))\n  FROM \(SQLLiteral.identifier(table.name))\(rows.isEmpty ? "" : "\n  " + rows)\n  LIMIT 1;"
  }

  /// The comment above a migration's guards, which says what they are.
  static let comment = "-- Checks: each stops the migration, changing nothing, with a message that names the row\n-- (SQLite reports it as a JSON path error)."

  /// Which row a message is about: its rowid, or its primary key in a table without one.
  private static func row(of table: TableSchema) -> [Part] {
    guard table.isWithoutRowID else { return [.text("row "), .value("rowid")] }
    let key = table.compositePrimaryKey.isEmpty ? table.columns.filter { $0.primaryKey != nil }.map(\.name) : table.compositePrimaryKey
    return [.text("the row whose \(key.map(SQLLiteral.identifier).joined(separator: ", ")) is ")]
      + key.enumerated().flatMap { offset, column -> [Part] in
        (offset == 0 ? [] : [.text(", ")]) + [.value(quoted(SQLLiteral.identifier(column)))]
      }
  }

  /// A value as SQL would write it, cut short: a message names it, it need not hold all of it.
  /// Reals get all 17 digits, which `quote` rounds to 15: 0.30000000000000004 is not 0.3.
  private static func quoted(_ expression: String) -> String {
    "substr(CASE typeof(\(expression)) WHEN 'real' THEN printf('%!.17g', \(expression)) ELSE quote(\(expression)) END, 1, 60)"
  }

  private static func name(_ table: TableSchema, _ column: String) -> String {
    "\(SQLLiteral.identifier(table.name)).\(SQLLiteral.identifier(column))"
  }

  /// Stops when `column` holds a value twice: it is about to become UNIQUE.
  static func duplicates(in table: TableSchema, column: String) -> MigrationGuard {
    let quotedColumn = SQLLiteral.identifier(column)
    return MigrationGuard(
      condition: "\(quotedColumn) holds duplicates",
      message: [
        .text("\(name(table, column)) cannot become UNIQUE: "), .value(quoted("\(quotedColumn)")), .text(" is in "),
        .value("count(*)"), .text(" rows; remove the duplicates in an earlier migration"),
      ],
      table: table, column: column, rows: "WHERE \(quotedColumn) IS NOT NULL GROUP BY \(quotedColumn) HAVING count(*) > 1")
  }

  /// Stops when `column` holds NULL: it is about to become NOT NULL, with no default to give.
  static func nulls(in table: TableSchema, column: String) -> MigrationGuard {
    let quotedColumn = SQLLiteral.identifier(column)
    return MigrationGuard(
      condition: "\(quotedColumn) holds NULL",
      message: row(of: table) + [
        .text(" has no \(quotedColumn) (NULL), so \(name(table, column)) cannot become NOT NULL: give the property a default, which those rows get, or update them in an earlier migration")
      ],
      table: table, column: column, rows: "WHERE \(quotedColumn) IS NULL")
  }

  /// Stops when the table has a row: a new NOT NULL column without a default has no value for it.
  static func rows(in table: TableSchema, newColumn column: String) -> MigrationGuard {
    MigrationGuard(
      condition: "the table has rows (\(SQLLiteral.identifier(column)) has no default)",
      message: [.text("\(SQLLiteral.identifier(table.name)) has rows (")] + row(of: table) + [
        .text(" among them), which the new NOT NULL column \(SQLLiteral.identifier(column)) has no value for: give the property a default")
      ],
      table: table, column: column, rows: "")
  }

  /// Stops when the default that NULLs get would make `column`, which is UNIQUE, hold a value
  /// twice: two NULLs, or a NULL and a row that already holds the default.
  static func sharedDefault(in table: TableSchema, column: String, value: ColumnDefault) -> MigrationGuard {
    let quotedTable = SQLLiteral.identifier(table.name)
    let quotedColumn = SQLLiteral.identifier(column)
    return MigrationGuard(
      condition: "more than one row would hold the default of \(quotedColumn), which is UNIQUE",
      message: row(of: table) + [
        .text(" has no \(quotedColumn) (NULL) and would get the default \(value.sql), but \(name(table, column)) is UNIQUE and another row would hold it too: give those rows distinct values in an earlier migration")
      ],
      table: table, column: column,
      rows:
        "WHERE \(quotedColumn) IS NULL AND ((SELECT count(*) FROM \(quotedTable) WHERE \(quotedColumn) IS NULL) > 1 OR EXISTS (SELECT 1 FROM \(quotedTable) WHERE \(quotedColumn) = \(value.sql)))"
    )
  }

  /// Stops when a value of `column` would not convert to `type` exactly: converted back, it would
  /// not be the value stored.
  static func lossyConversion(in table: TableSchema, column: String, to type: SQLType, consent: String) -> MigrationGuard {
    let quotedColumn = SQLLiteral.identifier(column)
    return MigrationGuard(
      condition: "a value of \(quotedColumn) does not convert to \(type.sql) exactly",
      message: row(of: table) + [
        .text(" holds "), .value(quoted(quotedColumn)), .text(" in \(name(table, column)), which becomes "),
        .value(quoted(SQLConversion.converted(quotedColumn, to: type))),
        .text(" as \(type.sql): the migration changes nothing. Update the value in an earlier migration, or \(consent)"),
      ],
      table: table, column: column, rows: "WHERE NOT \(SQLConversion.isExact(quotedColumn, to: type))")
  }
}

/// How a rebuild's copy converts values between storage classes, and which conversions give back
/// exactly the value stored.
///
/// The copy uses SQLite's `CAST`, except that a REAL becomes the text of all its digits when
/// `CAST`'s 15 would read back as another number (`9007199254740993.0` is not
/// `'9.00719925474099e+15'`), so that no REAL changes on its way to TEXT.
enum SQLConversion {
  /// The SQL that converts `value` to `type`.
  static func converted(_ value: String, to type: SQLType) -> String {
    guard type == .text else { return "CAST(\(value) AS \(type.sql))" }
    return "CASE WHEN typeof(\(value)) = 'real' AND CAST(CAST(\(value) AS TEXT) AS REAL) <> \(value) THEN printf('%!.17g', \(value)) ELSE CAST(\(value) AS TEXT) END"
  }

  /// The text of a REAL: SQLite's, or all 17 digits when SQLite's reads back as another number.
  private static func text(ofReal value: String) -> String {
    "CASE WHEN CAST(CAST(\(value) AS TEXT) AS REAL) = \(value) THEN CAST(\(value) AS TEXT) ELSE printf('%!.17g', \(value)) END"
  }

  /// SQL that is true when `value` (NULL included) converts to `type` and back to the same value:
  /// an integer to REAL below 2^53, text to INTEGER when it is the integer's own text (`'7'`, not
  /// `'007'` or `' 7'`), text to REAL when it is the number's own text.
  static func isExact(_ value: String, to type: SQLType) -> String {
    let same: String
    var cases: [(storageClass: String, exact: String)] = []
    switch type {
    case .integer:
      same = "integer"
      cases = [("real", "CAST(\(value) AS INTEGER) = \(value)"), ("text", "CAST(CAST(\(value) AS INTEGER) AS TEXT) = +\(value)"), ("blob", "0")]
    case .real:
      same = "real"
      cases = [("integer", "CAST(\(value) AS REAL) = \(value)"), ("text", "\(text(ofReal: "CAST(\(value) AS REAL)")) = +\(value)"), ("blob", "0")]
    case .text:
      same = "text"
      cases = [("integer", "1"), ("real", "1"), ("blob", "CAST(CAST(\(value) AS TEXT) AS BLOB) = \(value)")]
    case .blob:
      same = "blob"
      cases = [("integer", "0"), ("real", "0"), ("text", "1")]
    case .any, .none, .other:
      return "1"
    }
    let branches = cases.map { " WHEN '\($0.storageClass)' THEN \($0.exact)" }.joined()
    return "(CASE typeof(\(value)) WHEN 'null' THEN 1 WHEN '\(same)' THEN 1\(branches) END)"
  }

  /// Whether a rebuild into `new` converts the values of a column, and so may change them: the
  /// declared type changes, or the new table is STRICT and the old one let the column hold values
  /// of any type.
  static func converts(from old: ColumnSchema, in oldTable: TableSchema, to new: ColumnSchema, in newTable: TableSchema) -> Bool {
    guard newTable.isStrict, [.integer, .real, .text, .blob].contains(new.type) else { return false }
    // An INTEGER PRIMARY KEY is the rowid: it holds integers whatever the table.
    if old.type == .integer, new.type == .integer, old.primaryKey != nil, !oldTable.isWithoutRowID { return false }
    return old.type != new.type || !oldTable.isStrict
  }
}

extension ValueFormat {
  /// SQL that is true when `value`, which is not NULL, is one the model's decoder reads.
  func accepts(_ value: String) -> String {
    switch self {
    case .uuidText:
      let hex = "[0-9A-Fa-f]"
      let pattern = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
      return "(typeof(\(value)) = 'text' AND \(value) GLOB '\(pattern)')"
    case .dateText:
      return Self.dateText(value)
    case .uuidBytes:
      return "(typeof(\(value)) = 'blob' AND length(\(value)) = 16)"
    case .integers(let range):
      return "(typeof(\(value)) = 'integer' AND \(value) BETWEEN \(range.lowerBound) AND \(range.upperBound))"
    case .oneOf(let values):
      return "(\(value) IN (\(values.map(\.sql).joined(separator: ", "))))"
    }
  }

  /// The date forms the runtime's `DateText.parse` reads: `YYYY-MM-DD`, then optionally a space
  /// or `T` and `HH:MM`, `:SS`, `.` and 1 to 9 digits, and `Z` or `±HH:MM`; a real day of a real
  /// month, hours below 24, minutes and seconds below 60.
  private static func dateText(_ value: String) -> String {
    func zone(_ text: String) -> String {
      "(\(text) IN ('', 'Z') OR (\(text) GLOB '[+-][0-9][0-9]:[0-5][0-9]' AND substr(\(text), 2, 2) < '24'))"
    }
    let afterMinutes = "substr(\(value), 17)"
    let afterSeconds = "substr(\(value), 20)"
    let fraction = "substr(\(value), 21)"
    let afterFraction = "ltrim(\(fraction), '0123456789')"
    let fractionDigits = "length(\(fraction)) - length(\(afterFraction))"
    let time = [
      "substr(\(value), 11, 6) GLOB '[ T][0-2][0-9]:[0-5][0-9]' AND substr(\(value), 12, 2) < '24'",
      "(\(zone(afterMinutes)) OR (\(afterMinutes) GLOB ':[0-5][0-9]*' AND (\(zone(afterSeconds)) OR (\(afterSeconds) GLOB '.[0-9]*' AND \(fractionDigits) BETWEEN 1 AND 9 AND \(zone(afterFraction))))))",
    ].joined(separator: " AND ")
    return "(typeof(\(value)) = 'text' AND \(value) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND date(substr(\(value), 1, 10), '+0 days') IS substr(\(value), 1, 10) AND (length(\(value)) = 10 OR (\(time))))"
  }
}

extension MigrationGuard {
  /// Stops when a value of `column`, as the copy converts it to `type`, is not one the model reads
  /// as its `storedType`.
  static func unreadable(
    in table: TableSchema, column: String, convertedTo type: SQLType?, format: ValueFormat, storedType: String
  ) -> MigrationGuard {
    let quotedColumn = SQLLiteral.identifier(column)
    let value = type.map { SQLConversion.converted(quotedColumn, to: $0) } ?? quotedColumn
    return MigrationGuard(
      condition: "a value of \(quotedColumn) is not one the model reads as \(storedType)",
      message: row(of: table) + [
        .text(" holds "), .value(quoted(value)), .text(" in \(name(table, column)), which the model cannot read as \(storedType): the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"),
      ],
      table: table, column: column, rows: "WHERE \(value) IS NOT NULL AND NOT \(format.accepts(value))")
  }
}
