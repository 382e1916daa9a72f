import GRDB
import StrataCore
import StrataSQL

extension SyncReplica {
  /// The cursor past every change recorded here so far: what a peer that has everything this
  /// replica holds would ask from next.
  public func newestCursor(in db: Database) throws -> SyncCursor {
    SyncCursor(try Self.newestStamp(db))
  }

  /// How many rows changed after `cursor`: what a peer that confirmed `cursor` has yet to get.
  public func changedRowCount(since cursor: SyncCursor, in db: Database) throws -> Int {
    let q = SQLQuoting.identifier
    return try Int.fetchOne(
      db,
      sql: """
        SELECT count(*) FROM (
          SELECT table_name, row_key FROM \(q(SyncTables.rows)) WHERE seq > ?1
          UNION SELECT table_name, row_key FROM \(q(SyncTables.cells)) WHERE seq > ?1)
        """, arguments: [cursor.sequence]) ?? 0
  }

  /// Removes a row and the synced rows below it from this replica without recording a delete:
  /// for a record the user may no longer read (a share that ended), whose rows must leave the
  /// device but not the others. Sync's records of them go too, so that the record comes back
  /// whole if it is shared again.
  public func forget(table: String, key: StoredValue, in db: Database) throws {
    let q = SQLQuoting.identifier
    var rows: [(table: SyncedTableInfo, key: StoredValue)] = []
    func collect(_ table: SyncedTableInfo, _ key: StoredValue) throws {
      rows.append((table, key))
      for child in table.children {
        guard let info = tables[child.table] else { continue }
        let keys = try Row.fetchAll(db, sql: "SELECT \(q(info.key)) FROM \(q(info.name)) WHERE \(q(child.column)) = ?", arguments: [key.databaseValue])
        for row in keys { try collect(info, row.stored(0)) }
      }
    }
    guard let info = tables[table] else { return }
    try collect(info, key)
    let replica = q(SyncTables.replica)
    let metadataTables = [SyncTables.rows, SyncTables.cells, SyncTables.siblings, SyncTables.held, SyncTables.waiting]
      + (try db.tableExists(SyncTables.serverWaiting) ? [SyncTables.serverWaiting] : [])
    try db.inSavepoint {
      try db.execute(sql: "UPDATE \(replica) SET applying = 1")
      for row in rows.reversed() {
        try db.execute(sql: "DELETE FROM \(q(row.table.name)) WHERE \(q(row.table.key)) = ?", arguments: [row.key.databaseValue])
        for metadata in metadataTables {
          try db.execute(sql: "DELETE FROM \(q(metadata)) WHERE table_name = ? AND row_key = ?", arguments: [row.table.name, row.key.databaseValue])
        }
      }
      try db.execute(sql: "UPDATE \(replica) SET applying = 0")
      return .commit
    }
  }
}

extension SyncReplica {
  /// Calls `onChange` after every transaction that changed a synced table, whoever wrote it
  /// (the app, or an apply), until the returned cancellable is cancelled or released.
  ///
  /// It observes the synced tables themselves: SQLite does not tell GRDB's observers about what
  /// the capture triggers write into sync's own tables.
  public func observeChanges(onChange: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable {
    let regions: [any DatabaseRegionConvertible] = tables.keys.sorted().map { Table($0) }
    return DatabaseRegionObservation(tracking: regions).start(in: database, onError: { _ in }, onChange: { _ in onChange() })
  }
}
