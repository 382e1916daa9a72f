import StrataSQL

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
  /// For a check of the values a model reads as another type: the form they must have, and that
  /// type, so that another database can write the same check in its SQL.
  var readableAs: (format: ValueFormat, storedType: String)?

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sql == rhs.sql && lhs.condition == rhs.condition && lhs.table == rhs.table && lhs.column == rhs.column
  }

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
      case .text(let text): SQLQuoting.string(text)
      case .value(let sql): sql
      }
    }
    sql = "SELECT json_extract('{}', \(parts.joined(separator: " || ")))\n  FROM \(SQLQuoting.identifier(table.name))\(rows.isEmpty ? "" : "\n  " + rows)\n  LIMIT 1;"
  }

  /// The comment above a migration's guards, which says what they are.
  static let comment = "-- Checks: each stops the migration, changing nothing, with a message that names the row\n-- (SQLite reports it as a JSON path error)."

  /// Which row a message is about: its rowid, or its primary key in a table without one.
  private static func row(of table: TableSchema) -> [Part] {
    guard table.isWithoutRowID else { return [.text("row "), .value("rowid")] }
    let key = table.compositePrimaryKey.isEmpty ? table.columns.filter { $0.primaryKey != nil }.map(\.name) : table.compositePrimaryKey
    return [.text("the row whose \(key.map(SQLQuoting.identifier).joined(separator: ", ")) is ")]
      + key.enumerated().flatMap { offset, column -> [Part] in
        (offset == 0 ? [] : [.text(", ")]) + [.value(quoted(SQLQuoting.identifier(column)))]
      }
  }

  /// A value as SQL would write it, cut short: a message names it, it need not hold all of it.
  /// Reals get all 17 digits, which `quote` rounds to 15: 0.30000000000000004 is not 0.3.
  private static func quoted(_ expression: String) -> String {
    "substr(CASE typeof(\(expression)) WHEN 'real' THEN printf('%!.17g', \(expression)) ELSE quote(\(expression)) END, 1, 60)"
  }

  private static func name(_ table: TableSchema, _ column: String) -> String {
    "\(SQLQuoting.identifier(table.name)).\(SQLQuoting.identifier(column))"
  }

  /// Stops when `column` holds a value twice, as `collation` compares them: it is about to
  /// become UNIQUE, or a UNIQUE column is about to compare with `collation` (values that differ
  /// only in case are duplicates under NOCASE).
  static func duplicates(in table: TableSchema, column: String, collation: Collation? = nil) -> MigrationGuard {
    let quotedColumn = SQLQuoting.identifier(column)
    let compared = collation.map { "\(quotedColumn) COLLATE \($0.sql)" } ?? quotedColumn
    let under = collation.map { " under COLLATE \($0.name)" } ?? ""
    return MigrationGuard(
      condition: "\(quotedColumn) holds duplicates\(under)",
      message: [
        .text("\(name(table, column)) cannot become UNIQUE\(under): "), .value(quoted("\(quotedColumn)")), .text(" is in "),
        .value("count(*)"), .text(" rows\(collation == nil ? "" : ", as \(collation!.name) compares them"); remove the duplicates in an earlier migration"),
      ],
      table: table, column: column, rows: "WHERE \(quotedColumn) IS NOT NULL GROUP BY \(compared) HAVING count(*) > 1")
  }

  /// Stops when `column` holds NULL: it is about to become NOT NULL, with no default to give.
  static func nulls(in table: TableSchema, column: String) -> MigrationGuard {
    let quotedColumn = SQLQuoting.identifier(column)
    return MigrationGuard(
      condition: "\(quotedColumn) holds NULL",
      message: row(of: table) + [
        .text(" has no \(quotedColumn) (NULL), so \(name(table, column)) cannot become NOT NULL: give the property a default, which those rows get, or update them in an earlier migration")
      ],
      table: table, column: column, rows: "WHERE \(quotedColumn) IS NULL")
  }

  /// Stops when the default that NULLs get would make `column`, which is UNIQUE, hold a value
  /// twice: two NULLs, or a NULL and a row that already holds the default.
  static func sharedDefault(in table: TableSchema, column: String, value: ColumnDefault) -> MigrationGuard {
    let quotedTable = SQLQuoting.identifier(table.name)
    let quotedColumn = SQLQuoting.identifier(column)
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
    let quotedColumn = SQLQuoting.identifier(column)
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

extension MigrationGuard {
  /// Stops when a copied row would not hold exactly one whole case of an enum: `kept` is the
  /// rule over the values the copy writes.
  static func noCase(in table: TableSchema, rule: CaseRule, keptBy kept: String) -> MigrationGuard {
    let enumName = rule.swiftType.split(separator: ".").last.map(String.init) ?? rule.swiftType
    return MigrationGuard(
      condition: "a row would hold no single case of '\(rule.property)'",
      message: row(of: table) + [
        .text(
          " of \(SQLQuoting.identifier(table.name)) would hold no single, whole case of '\(rule.property)' (\(rule.swiftType)) in \(rule.columns.map(SQLQuoting.identifier).joined(separator: ", ")): the migration changes nothing. Give the property a default case, which such rows get (`var \(rule.property): \(enumName) = .someCase(value)`), or update the rows in an earlier migration")
      ],
      table: table, column: rule.columns.first ?? "", rows: "WHERE NOT (\(kept))")
  }

  /// Stops when a value of `column`, as the copy converts it to `type`, is not one the model reads
  /// as its `storedType`.
  static func unreadable(
    in table: TableSchema, column: String, convertedTo type: SQLType?, format: ValueFormat, storedType: String
  ) -> MigrationGuard {
    let quotedColumn = SQLQuoting.identifier(column)
    let value = type.map { SQLConversion.converted(quotedColumn, to: $0) } ?? quotedColumn
    var check = MigrationGuard(
      condition: "a value of \(quotedColumn) is not one the model reads as \(storedType)",
      message: row(of: table) + [
        .text(" holds "), .value(quoted(value)), .text(" in \(name(table, column)), which the model cannot read as \(storedType): the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"),
      ],
      table: table, column: column, rows: "WHERE \(value) IS NOT NULL AND NOT \(format.accepts(value))")
    check.readableAs = (format, storedType)
    return check
  }
}
