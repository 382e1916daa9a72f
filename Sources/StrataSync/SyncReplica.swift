import Foundation
import GRDB
import Strata
import StrataCore
import StrataSQL

/// One replica of an app's synced tables: a SQLite database whose writes to `// @Synced` tables
/// are recorded by the triggers its migrations made, and which merges what other replicas send.
///
/// ```swift
/// let replica = try SyncReplica(database, tables: StrataSyncedTables.all)
/// let outgoing = try replica.changes(since: cursorOfPeer)   // send outgoing.encoded()
/// try replica.apply(try Changeset(decoding: received))
/// ```
///
/// The replica knows nothing of networks: a transport moves changesets and keeps, per peer, the
/// cursor of the last changeset the peer confirmed. See the Sync article for the merge rules.
public final class SyncReplica: Sendable {
  /// The database.
  public let database: any DatabaseWriter
  /// This replica's id: 32 lowercase hexadecimal digits, made by the migration that first
  /// synced a table. (A copy of the database file is the same replica: give a copy that lives
  /// on as a replica of its own a new id with ``resetIdentity()`` before it writes.)
  public let id: String
  let tables: [String: SyncedTableInfo]
  /// The synced tables as the app described them.
  private let described: [SyncedTable]

  /// Opens the replica of `database`.
  ///
  /// - Throws: `SyncError` when a table of `tables` does not record its writes yet: run the
  ///   app's migrations first.
  public init(_ database: any DatabaseWriter, tables: [SyncedTable]) throws {
    self.database = database
    described = tables
    (id, self.tables) = try database.read { db in
      guard let id = try String.fetchOne(db, sql: "SELECT replica FROM \(SQLQuoting.identifier(SyncTables.replica))", arguments: [])
      else { throw SyncError("the database has no \(SyncTables.replica): no migration has made a table // @Synced yet") }
      var infos: [String: SyncedTableInfo] = [:]
      for table in tables { infos[table.name] = try SyncedTableInfo.read(table, in: db) }
      SyncedTableInfo.link(&infos)
      return (id, infos)
    }
  }

  /// Gives this database a new replica id, for a copy of another replica's file that is to
  /// sync as a replica of its own. Its rows keep their stamps.
  public func resetIdentity() throws -> SyncReplica {
    try database.write { db in
      try db.execute(sql: "UPDATE \(SQLQuoting.identifier(SyncTables.replica)) SET replica = lower(hex(randomblob(16)))")
    }
    return try SyncReplica(database, tables: described)
  }

  // MARK: Changes

  /// The rows that changed after `cursor`, whole: written here or merged from another replica.
  ///
  /// - Parameters:
  ///   - cursor: Where the peer's last confirmed changeset from this replica ended (its
  ///     `Changeset.cursor`), or `SyncCursor.start` for everything.
  ///   - limit: At most this many rows, the earliest changed first; the changeset's cursor then
  ///     covers those, and the next call returns the rest.
  public func changes(since cursor: SyncCursor = .start, limit: Int? = nil) throws -> Changeset {
    try database.read { db in try changes(since: cursor, limit: limit, in: db) }
  }

  /// ``changes(since:limit:)`` in a transaction of the caller's.
  public func changes(since cursor: SyncCursor, limit: Int? = nil, in db: Database) throws -> Changeset {
    let store = SyncStore(db: db, tables: tables)
    let q = SQLQuoting.identifier
    let newest = try Self.newestStamp(db)
    var sql = """
      SELECT table_name, row_key, max(seq) AS seq FROM (
        SELECT table_name, row_key, seq FROM \(q(SyncTables.rows)) WHERE seq > ?1
        UNION ALL SELECT table_name, row_key, seq FROM \(q(SyncTables.cells)) WHERE seq > ?1
      ) GROUP BY table_name, row_key ORDER BY 3, 1, 2
      """
    if let limit { sql += " LIMIT \(max(limit, 1))" }
    var rows: [RowChange] = []
    var through = SyncCursor(newest)
    let changed = try Row.fetchAll(db, sql: sql, arguments: [cursor.sequence])
    if let limit, changed.count >= limit, let last = changed.last { through = SyncCursor(last["seq"]) }
    for entry in changed {
      if let row = try rowChange(entry["table_name"], entry.stored(1), store: store) { rows.append(row) }
    }
    if through.sequence < newest { rows = try withPendingParents(rows, after: cursor, store: store) }
    return Changeset(replica: id, schemaVersion: try Self.schemaVersion(db), cursor: through, rows: rows)
  }

  /// A row as this replica holds it, for a peer; nil for one it has no record of.
  private func rowChange(_ table: String, _ key: StoredValue, store: SyncStore) throws -> RowChange? {
    guard let life = try store.life(table, key) else { return nil }
    let columns = life.isDeleted ? [] : try store.columnStates(table, key, life: life).values.sorted { $0.name < $1.name }
    let row = RowChange(table: table, key: key, stamp: life.stamp, isDeleted: life.isDeleted, columns: columns)
    return row.alsoUnderFormerNames(tables[table]?.keptRenames ?? [])
  }

  /// A page of the changes, and before them the rows they reference that changed after
  /// `cursor` too but come in a later page (changed again since): the peer may not have them
  /// yet, and a sync server refuses a row whose parent it does not know. They come again in
  /// their own page; applying twice changes nothing.
  private func withPendingParents(_ page: [RowChange], after cursor: SyncCursor, store: SyncStore) throws -> [RowChange] {
    let q = SQLQuoting.identifier
    var included = Set(page.map { RowKey(table: $0.table, key: $0.key) })
    var parents: [RowChange] = []
    var unvisited = page
    while let row = unvisited.popLast() {
      guard !row.isDeleted, let info = tables[row.table] else { continue }
      for reference in info.parents {
        guard let parent = tables[reference.table], reference.target.isEmpty || reference.target == parent.key,
          let state = row.columns.first(where: { $0.name == reference.column })
        else { continue }
        let key = try store.resolve(row.table, state)
        guard key != .null, !included.contains(RowKey(table: parent.name, key: key)) else { continue }
        let pending = try store.db.row(
          """
          SELECT 1 FROM \(q(SyncTables.rows)) WHERE table_name = ?1 AND row_key = ?2 AND seq > ?3
          UNION ALL SELECT 1 FROM \(q(SyncTables.cells)) WHERE table_name = ?1 AND row_key = ?2 AND seq > ?3
          """,
          [parent.name, key.databaseValue, cursor.sequence])
        guard pending != nil, let change = try rowChange(parent.name, key, store: store) else { continue }
        included.insert(RowKey(table: parent.name, key: key))
        parents.append(change)
        unvisited.append(change)
      }
    }
    return parents.reversed() + page
  }

  /// The latest stamp this replica recorded: where its next change's stamp starts from.
  static func newestStamp(_ db: Database) throws -> Int64 {
    let q = SQLQuoting.identifier
    return try Int64.fetchOne(
      db, sql: "SELECT max(coalesce((SELECT max(seq) FROM \(q(SyncTables.rows))), 0), coalesce((SELECT max(seq) FROM \(q(SyncTables.cells))), 0))"
    ) ?? 0
  }

  /// Where the database stands in the app's migrations, as a sync server compares it with its
  /// own: the newest migration it ran, and the window that migration was written under. Nil
  /// for a database Strata's migrator did not migrate.
  public func schema(in db: Database) throws -> SyncSchema? {
    let name = try Self.schemaVersion(db)
    guard let number = SyncSchema.number(of: name) else { return nil }
    var window: Int?
    if try db.tableExists(migrationChecksumTable), try db.columns(in: migrationChecksumTable).contains(where: { $0.name == "compatibleFrom" }) {
      window = try Int.fetchOne(db, sql: "SELECT compatibleFrom FROM \(migrationChecksumTable) WHERE name = ?", arguments: [name])
    }
    return SyncSchema(number: number, keepsWorkingFrom: window)
  }

  /// The last migration the database ran.
  static func schemaVersion(_ db: Database) throws -> String {
    guard try db.tableExists("grdb_migrations") else { return "" }
    return try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1") ?? ""
  }

  // MARK: Apply

  /// Merges another replica's changeset, in one transaction, with the triggers silenced: the
  /// merged rows are not recorded as this replica's writes, but are sent on to its peers.
  ///
  /// Applying is idempotent and independent of order. Live queries see the merged rows as
  /// they see any write.
  public func apply(_ changeset: Changeset) throws {
    try database.write { db in try apply(changeset, in: db) }
  }

  /// ``apply(_:)`` in a write transaction of the caller's.
  public func apply(_ changeset: Changeset, in db: Database) throws {
    try apply(changeset, serverWaiting: nil, in: db)
  }

  /// ``apply(_:in:)`` for a changeset from a sync server, which names the rows of it that it
  /// keeps out of its own tables (a unique value that a row this user cannot read holds, a
  /// parent deleted there): this replica keeps them out too, listed by ``conflicts()``, until
  /// the server sends them again without the mark. So every device shows what the server
  /// holds, even when the reason is a row the device never sees.
  public func apply(_ changeset: Changeset, waitingAtServer waiting: [(table: String, key: StoredValue)], in db: Database) throws {
    try apply(changeset, serverWaiting: Set(waiting.map { RowKey(table: $0.table, key: $0.key) }), in: db)
  }

  /// A row of a table, as a set holds it.
  private struct RowKey: Hashable {
    var table: String
    var key: StoredValue
  }

  private func apply(_ changeset: Changeset, serverWaiting: Set<RowKey>?, in db: Database) throws {
    try changeset.check()
    // What this apply records is stamped past every clock in the changeset and every stamp
    // recorded here, so the replica's next writes come after all it has seen (a hybrid
    // logical clock's receive rule); peers ask for it from their cursor like any change.
    let newestClock = changeset.rows.lazy.flatMap { row in [row.stamp.clock] + row.columns.flatMap { $0.values.map(\.stamp.clock) } }
      .max() ?? 0
    let seq = try Self.nextStamp(db, after: newestClock)
    try applying(db) { store, materializer in
      try materializer.placeAddedColumns()
      if let serverWaiting { try markServerWaiting(changeset, serverWaiting, db: db) }
      for row in changeset.rows {
        try merge(row, store: store, materializer: materializer, seq: seq)
      }
      // A row the server now keeps out may be unchanged here, and so not placed again above.
      for row in changeset.rows where serverWaiting?.contains(RowKey(table: row.table, key: row.key)) == true {
        guard let info = tables[row.table], try store.tableRow(info, row.key) != nil else { continue }
        try materializer.hold(row.table, row.key, try store.currentValues(row.table, row.key), reason: Materializer.waitingAtServer)
      }
    }
  }

  /// Records which rows of a server's changeset the server keeps out of its tables, and
  /// forgets the mark of those it sent without one (the waiting rows are tried again after).
  private func markServerWaiting(_ changeset: Changeset, _ waiting: Set<RowKey>, db: Database) throws {
    let table = SQLQuoting.identifier(SyncTables.serverWaiting)
    if try !db.tableExists(SyncTables.serverWaiting) {
      guard !waiting.isEmpty else { return }
      try db.execute(sql: "CREATE TABLE \(table) (table_name TEXT NOT NULL, row_key NOT NULL, PRIMARY KEY (table_name, row_key))")
    }
    for row in changeset.rows {
      if waiting.contains(RowKey(table: row.table, key: row.key)) {
        try db.execute(sql: "INSERT OR IGNORE INTO \(table) (table_name, row_key) VALUES (?, ?)", arguments: [row.table, row.key.databaseValue])
      } else {
        try db.execute(sql: "DELETE FROM \(table) WHERE table_name = ? AND row_key = ?", arguments: [row.table, row.key.databaseValue])
      }
    }
  }

  /// Runs `body` with the capture triggers silenced, in a savepoint: what it writes is the
  /// engine's, not the app's, and all of it or none is written even inside a caller's
  /// transaction that goes on after an error. The waiting rows are tried again after it.
  private func applying(_ db: Database, _ body: (SyncStore, Materializer) throws -> Void) throws {
    let replica = SQLQuoting.identifier(SyncTables.replica)
    try db.inSavepoint {
      try db.execute(sql: "UPDATE \(replica) SET applying = 1")
      let store = SyncStore(db: db, tables: tables)
      let materializer = Materializer(store: store)
      try body(store, materializer)
      try retryWaiting(store: store, materializer: materializer)
      try db.execute(sql: "UPDATE \(replica) SET applying = 0")
      return .commit
    }
  }

  /// The stamp of what this replica records next: past the wall clock, every stamp it recorded,
  /// and `clock` (the newest it received), as the capture triggers compute it in SQL. The wall
  /// clock is SQLite's (`julianday('now')`), the one the triggers read, so that the engine's
  /// stamps and the app's writes' stamps come from one clock even when the device's is off.
  static func nextStamp(_ db: Database, after clock: Int64 = 0) throws -> Int64 {
    let wallClock = try Int64.fetchOne(db, sql: "SELECT \(SyncTables.wallClockMilliseconds)") ?? 0
    return max(wallClock << SyncTables.counterBits, try newestStamp(db) + 1, clock + 1)
  }

  private func merge(_ row: RowChange, store: SyncStore, materializer: Materializer, seq: Int64) throws {
    let row = row.underCurrentNames(tables[row.table]?.renames ?? [])
    let incoming = SyncStore.Life(stamp: row.stamp, isDeleted: row.isDeleted)
    let local = try store.life(row.table, row.key)
    switch RowMerge.step(local: local.map { ($0.stamp, $0.isDeleted) }, incoming: row) {
    case .ignore:
      return
    case .replace:
      try store.setLife(row.table, row.key, incoming, seq: seq)
      try store.forgetColumns(row.table, row.key)
      if incoming.isDeleted {
        if let info = tables[row.table] { try materializer.remove(info, row.key) }
        return
      }
      var values: [String: StoredValue] = [:]
      for column in row.columns {
        try store.store(row.table, row.key, life: incoming, column, seq: seq)
        values[column.name] = try store.resolve(row.table, column)
      }
      try place(row.table, row.key, life: incoming, values, store: store, materializer: materializer, replacing: true)
    case .mergeColumns:
      let changed = RowMerge.mergedColumns(try store.columnStates(row.table, row.key, life: incoming), row.columns)
      guard !changed.isEmpty else { return }
      var values: [String: StoredValue] = [:]
      for column in changed {
        try store.store(row.table, row.key, life: incoming, column, seq: seq)
        values[column.name] = try store.resolve(row.table, column)
      }
      try store.setLife(row.table, row.key, incoming, seq: seq)
      try place(row.table, row.key, life: incoming, values, store: store, materializer: materializer, replacing: false)
    }
  }

  /// Puts the row in its table, or holds it: a table this replica does not sync yet holds it
  /// until a migration adds it.
  private func place(
    _ table: String, _ key: StoredValue, life: SyncStore.Life, _ values: [String: StoredValue], store: SyncStore,
    materializer: Materializer, replacing: Bool
  ) throws {
    let all = replacing ? values : try store.currentValues(table, key).merging(values) { _, new in new }
    guard let info = tables[table] else {
      try materializer.hold(
        table, key, all, reason: "this replica's schema does not sync a table \(table) yet; the row waits for the migration that adds it")
      return
    }
    if let reason = try store.waitingReason(table, key) {
      // Waiting rows are placed whole, after every row of the changeset is merged.
      try materializer.hold(table, key, all, reason: reason)
      return
    }
    try materializer.place(info, key, life: life, all)
  }

  /// Tries the rows that wait (``SyncConflict/Kind/waiting(reason:)``) again, parents first:
  /// every apply does, and an app calls this after a write of its own that lets one in (it
  /// changed the unique value another row waits for, or inserted the missing parent).
  public func placeWaitingRows() throws {
    try database.write { db in try applying(db) { _, _ in } }
  }

  /// Tries the waiting rows again, parents first, until no more can be placed.
  private func retryWaiting(store: SyncStore, materializer: Materializer) throws {
    let q = SQLQuoting.identifier
    var remaining = Int.max
    while true {
      let waiting = try Row.fetchAll(store.db, sql: "SELECT table_name, row_key FROM \(q(SyncTables.waiting))")
        .map { (table: $0["table_name"] as String, key: $0.stored(1)) }
        .filter { tables[$0.table] != nil }
        .sorted { (tables[$0.table]?.depth ?? 0) < (tables[$1.table]?.depth ?? 0) }
      guard waiting.count < remaining, !waiting.isEmpty else { return }
      remaining = waiting.count
      for row in waiting {
        guard let info = tables[row.table], let life = try store.life(row.table, row.key), !life.isDeleted else { continue }
        try materializer.place(info, row.key, life: life, try store.heldValues(row.table, row.key))
      }
    }
  }

  // MARK: Conflicts

  /// What sync did not settle on its own, to show the user: columns written concurrently on
  /// several replicas (with every value and the one the column holds), and rows kept out of
  /// their table, with why. A write to the column, ``keep(_:)``, or a change that lets the row
  /// in settles it.
  public func conflicts() throws -> [SyncConflict] {
    try database.read { db in
      let store = SyncStore(db: db, tables: tables)
      let q = SQLQuoting.identifier
      var conflicts: [SyncConflict] = []
      let concurrent = try Row.fetchAll(
        db, sql: "SELECT DISTINCT table_name, row_key, column_name FROM \(q(SyncTables.siblings)) ORDER BY 1, 2, 3")
      for entry in concurrent {
        let table: String = entry["table_name"]
        let key = entry.stored(1)
        let column: String = entry["column_name"]
        guard let life = try store.life(table, key), let state = try store.columnStates(table, key, life: life)[column] else { continue }
        conflicts.append(
          SyncConflict(
            table: table, key: key,
            kind: .concurrentWrites(column: column, values: state.values, kept: try store.currentValues(table, key)[column] ?? .null)))
      }
      for entry in try Row.fetchAll(db, sql: "SELECT table_name, row_key, reason FROM \(q(SyncTables.waiting)) ORDER BY 1, 2") {
        conflicts.append(SyncConflict(table: entry["table_name"], key: entry.stored(1), kind: .waiting(reason: entry["reason"])))
      }
      return conflicts
    }
  }
}

extension SyncReplica {
  /// Settles concurrent writes by keeping the value the column holds: records it as a write made
  /// here on top of every concurrent value, so that every replica it reaches holds it and lists
  /// nothing more. (Writing another value settles it too; writing the same one changes nothing
  /// a trigger sees, hence this.)
  public func keep(_ conflict: SyncConflict) throws {
    guard case .concurrentWrites(let column, _, _) = conflict.kind else { return }
    try database.write { db in
      let store = SyncStore(db: db, tables: tables)
      guard let life = try store.life(conflict.table, conflict.key), !life.isDeleted,
        let state = try store.columnStates(conflict.table, conflict.key, life: life)[column], state.values.count > 1
      else { return }
      let tick = try Self.nextStamp(db)
      let stamp = SyncStamp(clock: tick, replica: id)
      let seen = VersionVector(joining: state.values)
      let kept = try store.currentValues(conflict.table, conflict.key)[column] ?? .null
      try store.store(
        conflict.table, conflict.key, life: life,
        ColumnState(name: column, values: [ColumnValue(value: kept, stamp: stamp, versions: seen.joined(VersionVector(stamp)))]),
        seq: tick)
    }
  }
}

/// Something sync settled by a rule the user may want to see, or could not settle yet.
public struct SyncConflict: Hashable, Sendable {
  /// What sync settled by a rule, or could not settle yet.
  public enum Kind: Hashable, Sendable {
    /// Values written to `column` on several replicas without seeing each other, oldest first;
    /// the column holds `kept`, what its merge rule made of them.
    case concurrentWrites(column: String, values: [ColumnValue], kept: StoredValue)
    /// The row is kept out of its table for now, with its values, for `reason`.
    case waiting(reason: String)
  }

  /// The synced table.
  public var table: String
  /// The row's key.
  public var key: StoredValue
  /// What happened.
  public var kind: Kind
}
