import GRDB
import Strata
import StrataCore
import StrataSQL

/// Puts merged rows in their tables, and keeps out those that cannot be there yet, by rules
/// every replica applies alike:
///
/// - a row whose parent is not in its table waits, held with its values, until the parent is;
/// - when two rows hold the same unique value, the row inserted first (by stamp; of two
///   inserted at once, the smaller key) keeps its place and the other waits until one of them
///   changes;
/// - a row the database refuses for another reason (a CHECK of a newer schema) waits too;
/// - a row the sync server keeps out of its own tables waits until the server places it.
///
/// Waiting rows are listed by ``SyncReplica/conflicts()`` and tried again after every apply.
struct Materializer {
  let store: SyncStore
  private var db: Database { store.db }
  private static let q = SQLQuoting.identifier

  /// Why a row the sync server keeps out of its tables waits here too.
  static let waitingAtServer =
    "the sync server keeps it out of its table (a unique value held by a row this user cannot read, or its parent is not there); it comes in when the server places it"

  /// Writes `values` (every column the row has) as the row's content, or holds it.
  func place(_ table: SyncedTableInfo, _ key: StoredValue, life: SyncStore.Life, _ values: [String: StoredValue]) throws {
    let local = Set(table.columns)
    let current = try store.tableRow(table, key)
    var row = current ?? [:]
    for (column, value) in values where local.contains(column) { row[column] = value }
    if try store.isWaitingAtServer(table.name, key) {
      try hold(table.name, key, values.merging(row) { _, inRow in inRow }, reason: Self.waitingAtServer)
      return
    }
    if let reason = try whyNotPlaced(table, key, life: life, row) {
      try hold(table.name, key, values.merging(row) { _, inRow in inRow }, reason: reason)
      return
    }
    let failure: String? = try refusal {
      if current == nil {
        let columns = [table.key] + table.columns.filter { row[$0] != nil }
        try db.run("INSERT INTO \(Self.q(table.name)) (\(columns.map(Self.q).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
          StatementArguments([key.databaseValue] + columns.dropFirst().map { row[$0]!.databaseValue }))
      } else {
        let changed = table.columns.filter { row[$0] != current?[$0] }
        guard !changed.isEmpty else { return }
        try db.run("UPDATE \(Self.q(table.name)) SET \(changed.map { Self.q($0) + " = ?" }.joined(separator: ", ")) WHERE \(Self.q(table.key)) = ?",
          StatementArguments(changed.map { row[$0]!.databaseValue } + [key.databaseValue]))
      }
    }
    if let failure {
      try hold(table.name, key, values.merging(row) { _, inRow in inRow }, reason: failure)
      return
    }
    try db.run("DELETE FROM \(Self.q(SyncTables.waiting)) WHERE table_name = ? AND row_key = ?", [table.name, key.databaseValue])
    try db.run("DELETE FROM \(Self.q(SyncTables.held)) WHERE table_name = ? AND row_key = ?", [table.name, key.databaseValue])
    for (column, value) in values where !local.contains(column) {
      try db.run("INSERT OR REPLACE INTO \(Self.q(SyncTables.held)) (table_name, row_key, column_name, value) VALUES (?, ?, ?, ?)",
        [table.name, key.databaseValue, column, value.databaseValue])
    }
  }

  /// Writes the values of columns a migration added since they arrived: held for rows in their
  /// table because this replica's table did not have the column then. A column renamed from
  /// one this replica had is not written: its migration copied the former column, which every
  /// sender kept in step and sent with it, and which holds this replica's own later writes.
  func placeAddedColumns() throws {
    let held = try db.rows("""
        SELECT h.table_name, h.row_key, h.column_name, h.value FROM \(Self.q(SyncTables.held)) AS h
        WHERE NOT EXISTS (
          SELECT 1 FROM \(Self.q(SyncTables.waiting)) AS w WHERE w.table_name = h.table_name AND w.row_key = h.row_key)
        """)
    for entry in held {
      let table: String = entry["table_name"]
      let column: String = entry["column_name"]
      guard let info = store.tables[table], info.columns.contains(column) else { continue }
      let key = entry.stored(1)
      if info.renames.contains(where: { $0.current == column }) {
        try db.run("DELETE FROM \(Self.q(SyncTables.held)) WHERE table_name = ? AND row_key = ? AND column_name = ?", [table, key.databaseValue, column])
        continue
      }
      let refused = try refusal {
        try db.run("UPDATE \(Self.q(table)) SET \(Self.q(column)) = ? WHERE \(Self.q(info.key)) = ?",
          [entry.stored(3).databaseValue, key.databaseValue])
      }
      if let refused {
        try hold(table, key, try store.currentValues(table, key), reason: refused)
        continue
      }
      try db.run("DELETE FROM \(Self.q(SyncTables.held)) WHERE table_name = ? AND row_key = ? AND column_name = ?",
        [table, key.databaseValue, column])
    }
  }

  /// Runs `body`, one statement; what a constraint of the database refused, as a reason to
  /// wait, or nil. SQLite undoes a refused statement alone, so the transaction goes on.
  private func refusal(_ body: () throws -> Void) throws -> String? {
    do {
      try body()
      return nil
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      return "the database refused it: \(error.message ?? error.description)"
    }
  }

  private func whyNotPlaced(_ table: SyncedTableInfo, _ key: StoredValue, life: SyncStore.Life, _ row: [String: StoredValue]) throws -> String? {
    for parent in table.parents {
      guard let value = row[parent.column], value != .null else { continue }
      let exists = try db.row(
        "SELECT count(*) > 0 FROM \(Self.q(parent.table)) WHERE \(Self.q(parent.target.isEmpty ? store.tables[parent.table]?.key ?? "rowid" : parent.target)) = ?",
        [value.databaseValue])
      if exists?[0] != true {
        return "its parent in \(parent.table) (\(parent.column) = \(value.queryBinding)) is not there: not synced yet, deleted on another replica, or waiting itself"
      }
    }
    for unique in table.uniques {
      let values = unique.map { row[$0] ?? .null }
      guard !values.contains(.null) else { continue }
      let others = try db.rows("SELECT \(Self.q(table.key)) FROM \(Self.q(table.name)) WHERE \(unique.map { Self.q($0) + " = ?" }.joined(separator: " AND ")) AND \(Self.q(table.key)) IS NOT ?",
        StatementArguments(values.map(\.databaseValue) + [key.databaseValue]))
      for other in others.map({ $0.stored(0) }) {
        let description = zip(unique, values).map { "\($0) = \($1.queryBinding)" }.joined(separator: ", ")
        let otherLife = try store.life(table.name, other)
        if let otherLife, RowMerge.keepsUniqueValue((otherLife.stamp, other), over: (life.stamp, key)) {
          return "its unique value (\(description)) is held by the row \(other.queryBinding), inserted earlier; change one of them"
        }
        try hold(
          table.name, other, try store.currentValues(table.name, other),
          reason: "its unique value (\(description)) is held by the row \(key.queryBinding), inserted earlier; change one of them")
      }
    }
    return nil
  }

  /// Keeps a row out of its table, with its values, for `reason`; rows that reference it wait
  /// with it.
  func hold(_ table: String, _ key: StoredValue, _ values: [String: StoredValue], reason: String) throws {
    if let info = store.tables[table], try store.tableRow(info, key) != nil {
      try holdChildren(of: info, key)
      try db.run("DELETE FROM \(Self.q(table)) WHERE \(Self.q(info.key)) = ?", [key.databaseValue])
    }
    for (column, value) in values {
      try db.run("INSERT OR REPLACE INTO \(Self.q(SyncTables.held)) (table_name, row_key, column_name, value) VALUES (?, ?, ?, ?)",
        [table, key.databaseValue, column, value.databaseValue])
    }
    try db.run("INSERT OR REPLACE INTO \(Self.q(SyncTables.waiting)) (table_name, row_key, reason) VALUES (?, ?, ?)",
      [table, key.databaseValue, reason])
  }

  /// Takes a deleted row out of its table; rows that reference it and were not deleted with it
  /// (added concurrently on another replica) wait.
  func remove(_ table: SyncedTableInfo, _ key: StoredValue) throws {
    try holdChildren(of: table, key)
    try db.run("DELETE FROM \(Self.q(table.name)) WHERE \(Self.q(table.key)) = ?", [key.databaseValue])
  }

  private func holdChildren(of table: SyncedTableInfo, _ key: StoredValue) throws {
    for child in table.children {
      guard let info = store.tables[child.table] else { continue }
      let keys = try db.rows("SELECT \(Self.q(info.key)) FROM \(Self.q(info.name)) WHERE \(Self.q(child.column)) = ?", [key.databaseValue]
      ).map { $0.stored(0) }
      for childKey in keys {
        try hold(
          info.name, childKey, try store.currentValues(info.name, childKey),
          reason: "its parent in \(table.name) (\(child.column) = \(key.queryBinding)) is not there: deleted on another replica, or waiting itself")
      }
    }
  }
}
