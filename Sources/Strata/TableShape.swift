import GRDB

/// A table as SQLite describes it: its columns, keys, references and indexes, read from its
/// pragmas. Two tables with the same shape hold the same values the same way, whatever the
/// text of their `CREATE TABLE` (which `ALTER TABLE` rewrites).
struct TableShape: Equatable {
  struct Column: Equatable {
    var name: String
    var type: String
    var isNotNull: Bool
    var defaultValue: String?
    /// The column's position in the primary key, from 1; 0 when it is not in it.
    var primaryKeyPosition: Int
  }

  struct Reference: Equatable {
    var columns: [String]
    var table: String
    var targetColumns: [String?]
    var onUpdate: String
    var onDelete: String
  }

  struct Index: Equatable {
    var name: String
    var columns: [String?]
    var isUnique: Bool
    var isPartial: Bool
  }

  var name: String
  var isStrict: Bool
  var isWithoutRowID: Bool
  var columns: [Column]
  var references: [Reference]
  /// The indexes written with `CREATE INDEX`; those SQLite makes for UNIQUE and PRIMARY KEY
  /// constraints are part of the columns' shape.
  var indexes: [Index]

  /// The shape of table `name`, or nil when `db` has no such table.
  init?(_ name: String, in db: Database) throws {
    guard
      let flags = try Row.fetchOne(
        db, sql: "SELECT name, wr, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name = ? COLLATE NOCASE",
        arguments: [name])
    else { return nil }
    self.name = flags["name"]
    isWithoutRowID = flags["wr"]
    isStrict = flags["strict"]
    columns = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
      .map { Column(name: $0["name"], type: ($0["type"] as String).uppercased(), isNotNull: $0["notnull"], defaultValue: $0["dflt_value"], primaryKeyPosition: $0["pk"]) }
    var references: [Int: Reference] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name]) {
      let id: Int = row["id"]
      var reference = references[id] ?? Reference(columns: [], table: row["table"], targetColumns: [], onUpdate: row["on_update"], onDelete: row["on_delete"])
      reference.columns.append(row["from"])
      reference.targetColumns.append(row["to"])
      references[id] = reference
    }
    self.references = references.values.sorted { "\($0.columns)" < "\($1.columns)" }
    indexes = try Row.fetchAll(db, sql: "SELECT name, \"unique\", partial FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name", arguments: [name])
      .map { row in
        Index(
          name: row["name"],
          columns: try String?.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [row["name"] as String]),
          isUnique: row["unique"], isPartial: row["partial"])
      }
  }

  /// How `self` differs from `expected`, in plain words; empty when they have the same shape.
  func differences(from expected: TableShape) -> [String] {
    var differences: [String] = []
    if isStrict != expected.isStrict { differences.append(expected.isStrict ? "it is not STRICT" : "it is STRICT") }
    if isWithoutRowID != expected.isWithoutRowID {
      differences.append(expected.isWithoutRowID ? "it has a rowid" : "it is WITHOUT ROWID")
    }
    let byName = Dictionary(columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    for column in expected.columns {
      guard var existing = byName[column.name.lowercased()] else {
        differences.append("it has no column \"\(column.name)\"")
        continue
      }
      existing.name = column.name
      if existing != column { differences.append("its column \"\(column.name)\" is \(existing.description), not \(column.description)") }
    }
    let expectedNames = Set(expected.columns.map { $0.name.lowercased() })
    for column in columns where !expectedNames.contains(column.name.lowercased()) {
      differences.append("it has a column \"\(column.name)\" the baseline does not make")
    }
    if references != expected.references { differences.append("its foreign keys differ") }
    if indexes != expected.indexes { differences.append("its indexes differ") }
    return differences
  }
}

extension TableShape.Column: CustomStringConvertible {
  var description: String {
    var parts = [type.isEmpty ? "untyped" : type]
    if isNotNull { parts.append("NOT NULL") }
    if let defaultValue { parts.append("DEFAULT \(defaultValue)") }
    if primaryKeyPosition > 0 { parts.append("in the PRIMARY KEY") }
    return parts.joined(separator: " ")
  }
}
