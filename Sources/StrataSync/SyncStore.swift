import GRDB
import Strata
import StrataCore
import StrataSQL

/// Reads and writes sync's tables and the synced tables' rows, within one transaction: the
/// vocabulary both making changesets and applying them are written in.
struct SyncStore {
  let db: Database
  let tables: [String: SyncedTableInfo]

  private static let q = SQLQuoting.identifier
  private static let rows = q(SyncTables.rows)
  private static let cells = q(SyncTables.cells)
  private static let siblings = q(SyncTables.siblings)
  private static let held = q(SyncTables.held)
  private static let waiting = q(SyncTables.waiting)

  /// A row's life: its latest insert or delete.
  struct Life: Equatable {
    var stamp: SyncStamp
    var isDeleted: Bool
  }

  func life(_ table: String, _ key: StoredValue) throws -> Life? {
    try db.row("SELECT clock, replica, deleted FROM \(Self.rows) WHERE table_name = ? AND row_key = ?",
      [table, key.databaseValue]
    ).map { Life(stamp: SyncStamp(clock: $0["clock"], replica: $0["replica"]), isDeleted: $0["deleted"] as Int64 != 0) }
  }

  func setLife(_ table: String, _ key: StoredValue, _ life: Life, seq: Int64) throws {
    try db.run("INSERT OR REPLACE INTO \(Self.rows) (table_name, row_key, clock, replica, deleted, seq) VALUES (?, ?, ?, ?, ?, ?)",
      [table, key.databaseValue, life.stamp.clock, life.stamp.replica, life.isDeleted ? 1 : 0, seq])
  }

  /// Forgets the columns' stamps and concurrent values of a row's earlier life, and what was
  /// held of it.
  func forgetColumns(_ table: String, _ key: StoredValue) throws {
    for metadata in [Self.cells, Self.siblings, Self.held, Self.waiting] {
      try db.run("DELETE FROM \(metadata) WHERE table_name = ? AND row_key = ?", [table, key.databaseValue])
    }
  }

  // MARK: Values

  /// The row's values in its table, by column, or nil when it is not there.
  func tableRow(_ table: SyncedTableInfo, _ key: StoredValue) throws -> [String: StoredValue]? {
    let columns = table.columns
    guard
      let row = try db.row("SELECT \(columns.isEmpty ? "1" : columns.map(Self.q).joined(separator: ", ")) FROM \(Self.q(table.name)) WHERE \(Self.q(table.key)) = ?",
        [key.databaseValue])
    else { return nil }
    var values: [String: StoredValue] = [:]
    for (index, column) in columns.enumerated() { values[column] = row.stored(index) }
    return values
  }

  /// What is held of a row: all its values while it is kept out of its table, or those of
  /// columns this replica's table does not have. A value held under a renamed column's former
  /// name (a row that waited since before the migration that renamed it) is the column's.
  func heldValues(_ table: String, _ key: StoredValue) throws -> [String: StoredValue] {
    var values: [String: StoredValue] = [:]
    for row in try db.rows("SELECT column_name, value FROM \(Self.held) WHERE table_name = ? AND row_key = ?", [table, key.databaseValue])
    {
      values[row["column_name"]] = row.stored(1)
    }
    for rename in tables[table]?.renames ?? [] {
      guard let former = values.removeValue(forKey: rename.former) else { continue }
      if values[rename.current] == nil { values[rename.current] = former }
    }
    return values
  }

  /// The row's current values: in its table, or held, and its columns this replica lacks.
  func currentValues(_ table: String, _ key: StoredValue) throws -> [String: StoredValue] {
    let held = try heldValues(table, key)
    guard let info = tables[table], let row = try tableRow(info, key) else { return held }
    return held.merging(row) { _, inTable in inTable }
  }

  /// Whether the sender of what is applied keeps the row out of its own table (a server's
  /// verdict, which this replica follows until the server places the row).
  func isWaitingAtServer(_ table: String, _ key: StoredValue) throws -> Bool {
    guard try db.tableExists(SyncTables.serverWaiting) else { return false }
    return try db.row("SELECT 1 FROM \(Self.q(SyncTables.serverWaiting)) WHERE table_name = ? AND row_key = ?", [table, key.databaseValue]) != nil
  }

  /// Why the row is kept out of its table, if it is.
  func waitingReason(_ table: String, _ key: StoredValue) throws -> String? {
    try db.row("SELECT reason FROM \(Self.waiting) WHERE table_name = ? AND row_key = ?", [table, key.databaseValue])?[0]
  }

  // MARK: Column states

  /// Every column of a living row, with its value(s) and stamps: recorded ones, or, for a column
  /// not written since the row's insert, the insert's. Stamps older than the row's life are
  /// from an earlier one (a `REPLACE` inserts without a delete) and are passed over; one as old
  /// as the life is a counter's record of its inserter's share alone.
  ///
  /// A renamed column's two names are one column (``ColumnRename``): the former name's state
  /// merges into the current one's, also when the table no longer has the former column (its
  /// stamps were recorded before the contract step dropped it).
  func columnStates(_ table: String, _ key: StoredValue, life: Life) throws -> [String: ColumnState] {
    var values = try currentValues(table, key)
    var recorded: [String: (stamp: SyncStamp, versions: String, parts: String?)] = [:]
    for row in try db.rows("SELECT column_name, clock, replica, versions, parts FROM \(Self.cells) WHERE table_name = ? AND row_key = ? AND clock >= ?",
      [table, key.databaseValue, life.stamp.clock])
    {
      recorded[row["column_name"]] = (SyncStamp(clock: row["clock"], replica: row["replica"]), row["versions"], row["parts"])
    }
    var concurrent: [String: [ColumnValue]] = [:]
    for row in try db.rows("SELECT column_name, clock, replica, versions, value FROM \(Self.siblings) WHERE table_name = ? AND row_key = ? AND clock >= ? ORDER BY column_name, clock, replica",
      [table, key.databaseValue, life.stamp.clock])
    {
      concurrent[row["column_name"], default: []].append(
        ColumnValue(
          value: row.stored(4), stamp: SyncStamp(clock: row["clock"], replica: row["replica"]),
          versions: try SyncJSON.vector(row["versions"])))
    }
    let isCounter = { (column: String) in
      if case .counter = self.tables[table]?.rule(of: column) { true } else { false }
    }
    let renames = tables[table]?.renames ?? []
    for rename in renames where values[rename.former] == nil && (recorded[rename.former] != nil || concurrent[rename.former] != nil) {
      values[rename.former] = values[rename.current]
    }
    var states: [String: ColumnState] = [:]
    for (column, value) in values {
      let inserted = ColumnValue(value: value, stamp: life.stamp, versions: VersionVector(life.stamp))
      if let siblings = concurrent[column], siblings.count > 1 {
        states[column] = ColumnState(name: column, values: siblings)
      } else if let cell = recorded[column] {
        let parts = try cell.parts.map(SyncJSON.parts)
        states[column] = ColumnState(
          name: column,
          values: [ColumnValue(value: value, stamp: cell.stamp, versions: parts == nil ? try SyncJSON.vector(cell.versions) : VersionVector())],
          parts: parts)
      } else if isCounter(column), case .integer(let total) = value {
        states[column] = ColumnState(
          name: column, values: [ColumnValue(value: value, stamp: life.stamp, versions: VersionVector())],
          parts: [life.stamp.replica: CounterPart(clock: life.stamp.clock, total: total)])
      } else {
        states[column] = ColumnState(name: column, values: [inserted])
      }
    }
    ColumnRename.fold(&states, renames)
    return states
  }

  /// Records a column's merged state: a stamp for a value written since the row's insert,
  /// the concurrent values when there are several, a counter's shares.
  func store(_ table: String, _ key: StoredValue, life: Life, _ state: ColumnState, seq: Int64) throws {
    let column = state.name
    try db.run("DELETE FROM \(Self.siblings) WHERE table_name = ? AND row_key = ? AND column_name = ?",
      [table, key.databaseValue, column])
    func record(_ stamp: SyncStamp, versions: String, parts: String?) throws {
      try db.run("""
          INSERT OR REPLACE INTO \(Self.cells) (table_name, row_key, column_name, clock, replica, versions, parts, seq)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        [table, key.databaseValue, column, stamp.clock, stamp.replica, versions, parts, seq])
    }
    func forget() throws {
      try db.run("DELETE FROM \(Self.cells) WHERE table_name = ? AND row_key = ? AND column_name = ?",
        [table, key.databaseValue, column])
    }
    if let parts = state.parts {
      // Only the inserting replica's initial value: what an unrecorded counter means, for a
      // column this replica knows counts (one it does not have yet keeps its shares recorded).
      if case .counter = tables[table]?.rule(of: column), parts.count == 1, parts[life.stamp.replica]?.clock == life.stamp.clock {
        return try forget()
      }
      let latest = parts.map { SyncStamp(clock: $0.value.clock, replica: $0.key) }.max() ?? life.stamp
      try record(latest, versions: "{}", parts: SyncJSON.text(parts))
      return
    }
    guard state.values.count > 1 else {
      // One value: recorded, unless it is the insert's own (what no record means).
      if let value = state.values.first, value.stamp != life.stamp || value.versions != VersionVector(life.stamp) {
        try record(value.stamp, versions: SyncJSON.text(value.versions), parts: nil)
      } else {
        try forget()
      }
      return
    }
    try record(state.values.map(\.stamp).max() ?? life.stamp, versions: SyncJSON.text(VersionVector(joining: state.values)), parts: nil)
    for value in state.values {
      try db.run("""
          INSERT OR REPLACE INTO \(Self.siblings) (table_name, row_key, column_name, clock, replica, versions, value)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """,
        [table, key.databaseValue, column, value.stamp.clock, value.stamp.replica, SyncJSON.text(value.versions), value.value.databaseValue])
    }
  }

  /// The value a column holds for its state.
  func resolve(_ table: String, _ state: ColumnState) throws -> StoredValue {
    try state.resolved(by: tables[table]?.rule(of: state.name) ?? .latest)
  }
}
