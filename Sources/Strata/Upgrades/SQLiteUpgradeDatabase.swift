import Foundation
import GRDB
import StrataCore
import StrataSQL

/// Checks upgrades from every schema in the migrations' history on SQLite, in memory: see
/// `UpgradeVerification`.
///
/// ```swift
/// @Test func upgrades() async throws {
///   try await verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: 1_000))
/// }
/// ```
///
/// - Parameters:
///   - verification: The migrations, rows per table, seed and starting schemas.
///   - functions: The SQL functions written in Swift the migrations call, as the app opens its
///     database with them.
/// - Returns: What was checked, with notes on what the migrations dropped with consent.
/// - Throws: `UpgradeFailure` for a row, a value or a check the upgrade lost or broke.
@discardableResult
public func verifyUpgrades(_ verification: UpgradeVerification, functions: [any CustomFunction] = []) async throws -> UpgradeReport {
  var database = try SQLiteUpgradeDatabase(functions: functions)
  return try await verification.run(on: &database)
}

/// A new in-memory database for each starting schema.
struct SQLiteUpgradeDatabase: UpgradeDatabase {
  let functions: [any CustomFunction]
  var writer: any DatabaseWriter

  init(functions: [any CustomFunction]) throws {
    self.functions = functions
    writer = try openDatabase(.inMemory, functions: functions)
  }

  mutating func reset() async throws {
    writer = try openDatabase(.inMemory, functions: functions)
  }

  func migrate(_ migrations: [Migration]) async throws {
    try writer.migrate(migrations)
  }

  func tables() async throws -> [UpgradeTable] {
    try await writer.read { db in
      let names = try String.fetchAll(
        db,
        sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (?, ?) ORDER BY name",
        arguments: [grdbMigrationsTable, migrationChecksumTable])
      // A full-text index's table of replaced rows is the index's, empty between statements.
      let virtual = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'virtual'")
      let indexTables = Set(virtual.map(FullTextIndexTables.replacedRows(of:)))
      return UpgradeTableOrder.sorted(try names.filter { !indexTables.contains($0) }.map { try table($0, in: db) })
    }
  }

  private func table(_ name: String, in db: Database) throws -> UpgradeTable {
    let strict = try Bool.fetchOne(db, sql: "SELECT strict FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [name]) ?? false
    let rows = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid", arguments: [name])
    let keyCount = rows.filter { ($0["pk"] as Int) > 0 }.count
    let columns = rows.filter { ($0["hidden"] as Int) == 0 }.map { row in
      let type = (row["type"] as String).uppercased()
      let position: Int = row["pk"]
      // An INTEGER PRIMARY KEY is the rowid, which SQLite fills.
      let isRowID = keyCount == 1 && position == 1 && type == "INTEGER"
      return UpgradeTable.Column(
        name: row["name"], kind: Self.kind(of: type, strict: strict), isNullable: !(row["notnull"] as Bool) && position == 0,
        hasDefault: row["dflt_value"] as String? != nil || isRowID, primaryKeyPosition: position > 0 ? position - 1 : nil)
    }
    var references: [Int: UpgradeTable.Reference] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name]) {
      let id: Int = row["id"]
      var reference = references[id] ?? UpgradeTable.Reference(columns: [], table: row["table"], targetColumns: [])
      reference.columns.append(row["from"])
      // A reference without columns names the parent's primary key.
      let target: String? = row["to"]
      reference.targetColumns.append(
        try target
          ?? String.fetchOne(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk = ?", arguments: [reference.table, reference.columns.count])
          ?? "rowid")
      references[id] = reference
    }
    return UpgradeTable(name: name, columns: columns, references: references.keys.sorted().map { references[$0]! })
  }

  /// The values a column takes, from its declared type: by name in a STRICT table, by SQLite's
  /// affinity rules in another (<https://www.sqlite.org/datatype3.html#determination_of_column_affinity>).
  static func kind(of type: String, strict: Bool) -> UpgradeTable.Kind {
    if strict {
      switch type {
      case "INTEGER", "INT": return .integer(bits: 64)
      case "REAL": return .real
      case "TEXT": return .text
      case "BLOB": return .blob
      default: return .any
      }
    }
    if type.contains("INT") { return .integer(bits: 64) }
    if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
    if type.contains("BLOB") { return .blob }
    if type.isEmpty { return .any }
    if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
    return .integer(bits: 64)
  }

  func insert(_ rows: [[QueryBinding?]], columns: [String], into table: String) async throws -> [Bool] {
    try await writer.write { db in
      try rows.map { row in
        do {
          try UpgradeTable.insert(into: table, columns: columns, row: row).execute(db)
          return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
          return false
        }
      }
    }
  }

  func rows(of table: String) async throws -> UpgradeRows {
    try await writer.read { db in
      let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden != 1 ORDER BY cid", arguments: [table])
      var key = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
      let withoutRowID = try Bool.fetchOne(db, sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [table]) ?? false
      if key.isEmpty, !withoutRowID { key = ["rowid"] }
      let list = (key + columns).map(SQLQuoting.identifier).joined(separator: ", ")
      let rows = try Row.fetchAll(db, sql: "SELECT \(list) FROM main.\(SQLQuoting.identifier(table))").map { row in
        let values = (0..<row.count).map { StoredValue(row[$0] as DatabaseValue) }
        return (key: Array(values[..<key.count]), values: Array(values[key.count...]))
      }
      return UpgradeRows(columns: columns, keyColumns: key, rows: rows)
    }
  }

  func problems() async throws -> [String] {
    // FTS5's integrity-check is an INSERT, which changes nothing but needs a write.
    try await writer.write { db in
      var problems: [String] = []
      for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
        problems.append(
          "foreign_key_check: row \(row[1] as Int64? ?? 0) of \"\(row[0] as String)\" references a row of \"\(row[2] as String)\" that does not exist")
      }
      let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
      if integrity != ["ok"] { problems += integrity.map { "integrity_check: \($0)" } }
      let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' ORDER BY name")
      for index in indexes {
        let quoted = SQLQuoting.identifier(index)
        do {
          // With rank 1, FTS5 also compares an external-content index with its content table.
          try db.execute(sql: "INSERT INTO main.\(quoted)(\(quoted), rank) VALUES ('integrity-check', 1)")
        } catch let error as DatabaseError {
          problems.append("the full-text index \"\(index)\" fails FTS5's integrity-check: \(error.message ?? "\(error)")")
        }
      }
      return problems
    }
  }

  func schema() async throws -> [String: String] {
    try await writer.read { db in
      var schema: [String: String] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'") {
        let (type, name, table): (String, String, String) = (row[0], row[1], row[2])
        if type == "table", let shape = try TableShape(name, in: db) {
          schema["table \(name)"] = "\(shape)"
        } else {
          schema["\(type) \(name)"] = "\(type) \"\(name)\" on \"\(table)\""
        }
      }
      return schema
    }
  }
}
