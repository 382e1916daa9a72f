#if SyncServer
import Foundation
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// One client's changeset merged into the server's rows, in one transaction: every row is
/// checked against what the user may write, merged by the same rules as on every replica,
/// saved, and written to its table. Any row refused refuses the whole changeset.
///
/// Isolation: the transaction is READ COMMITTED, and its first statement takes the next number
/// from `strata_sync.clock`, whose row lock it holds until it commits. Pushes therefore merge
/// one after another, each reading what the previous one committed (`FOR UPDATE` reads of the
/// rows it merges), and commit in the order of their numbers.
struct ServerPush {
  let tables: [String: ServerTable]
  let configuration: SyncServer.Configuration
  let db: PostgreSQLConnection
  let user: String
  let seq: Int64
  /// What the push has read and decided, so that each row and each record's rights are read
  /// once a push.
  private let known = PushState()
  private var access: Access { Access(db: db, user: user) }

  init(tables: [String: ServerTable], configuration: SyncServer.Configuration, db: PostgreSQLConnection, user: String) async throws {
    self.tables = tables
    self.configuration = configuration
    self.db = db
    self.user = user
    guard let seq = try await sql("UPDATE strata_sync.clock SET seq = seq + 1 RETURNING seq", as: Int64.self).fetchOne(db) else {
      throw SyncRefusal(.internalServerError, "strata_sync.clock has no row")
    }
    self.seq = seq
  }

  /// Checks what a changeset holds before anything is read: every row of a synced table, by
  /// a UUID key, and no clock far ahead of the server's.
  static func check(_ changeset: Changeset, tables: [String: ServerTable], configuration: SyncServer.Configuration) throws {
    let limit = (Int64(Date().timeIntervalSince1970 * 1000) + Int64(configuration.maximumClockAhead.components.seconds) * 1000) << 16
    for row in changeset.rows {
      guard tables[row.table] != nil else {
        throw SyncRefusal(.unprocessableContent, "the server does not sync a table \(row.table); nothing was written")
      }
      guard case .text(let key) = row.key, UUID(uuidString: key) != nil else {
        throw SyncRefusal(.unprocessableContent, "a row of \(row.table) has the key \(row.key), not a UUID; nothing was written")
      }
      let clocks = [row.stamp.clock] + row.columns.flatMap { $0.values.map(\.stamp.clock) + ($0.parts?.values.map(\.clock) ?? []) }
      if let clock = clocks.max(), clock > limit {
        throw SyncRefusal(
          .unprocessableContent,
          "the row \(key) of \(row.table) was written at \(Self.date(of: clock)), ahead of the server's clock by more than \(configuration.maximumClockAhead); set the device's clock; nothing was written")
      }
    }
  }

  private static func date(of clock: Int64) -> String {
    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(clock >> 16) / 1000))
  }

  /// Merges the rows, parents first; the number of rows whose state changed.
  func merge(_ changeset: Changeset) async throws -> Int {
    let rows = changeset.rows.sorted { a, b in
      let (da, db) = (tables[a.table]?.depth ?? 0, tables[b.table]?.depth ?? 0)
      return (da, a.table) < (db, b.table)
    }
    let ids = rows.compactMap { row -> RowID? in
      guard case .text(let key) = row.key else { return nil }
      return RowID(table: row.table, key: key)
    }
    for (id, row) in try await StoredRow.loadAll(ids, in: db) { known.rows[id] = row }
    for id in ids where known.rows[id] == nil { known.rows[id] = .some(nil) }
    try await knowRights(of: ids)
    var writes: [TableWrite] = []
    var saved: [StoredRow] = []
    for row in rows {
      guard let (merged, table, values) = try await merge(row) else { continue }
      writes.append(try TableWrite(merged, table: table, values: values))
      saved.append(merged)
    }
    guard !writes.isEmpty else { return 0 }
    try await StoredRow.saveAll(saved, seq: seq, in: db)
    for (old, new) in known.moves { try await move(old, to: new) }
    known.touched.formUnion(saved.map(\.id))
    try await materialize(writes)
    try await placeWaitingRows()
    return writes.count
  }

  /// Reads, in two statements, who owns the records of the pushed rows (and the rows
  /// themselves, which may be records) and what the user may do in them.
  private func knowRights(of ids: [RowID]) async throws {
    var roots = Set(ids)
    for case let row?? in ids.map({ known.rows[$0] }) { if let root = row.root { roots.insert(root) } }
    let owners = try await access.owners(of: Array(roots))
    let shared = try await access.sharedLevels(of: Array(roots))
    for root in roots {
      known.owners[root] = .some(owners[root])
      known.levels[root] = owners[root] == user ? .owner : shared[root] ?? Access.Level.none
    }
  }

  /// A stored row, as this push knows it.
  private func stored(_ id: RowID) async throws -> StoredRow? {
    if let known = known.rows[id] { return known }
    let row = try await StoredRow.load(id, locking: false, in: db)
    known.rows[id] = .some(row)
    return row
  }

  /// Merges one row and saves its state: what to write to its table, or nil when nothing
  /// changed.
  private func merge(_ incoming: RowChange) async throws -> (StoredRow, ServerTable, [String: StoredValue])? {
    guard let table = tables[incoming.table], case .text(let key) = incoming.key else { return nil }
    let incoming = incoming.underCurrentNames(table.renames)
    let id = RowID(table: table.name, key: key)
    var stored = try await stored(id)
    // A state saved before the server's migration renamed a column holds it under its former name.
    if let state = stored?.state { stored?.state = state.underCurrentNames(table.renames) }
    let merged: RowChange
    switch RowMerge.step(local: stored.map { ($0.state.stamp, $0.state.isDeleted) }, incoming: incoming) {
    case .ignore:
      return nil
    case .replace:
      merged = incoming
    case .mergeColumns:
      guard let stored else { return nil }
      let changed = RowMerge.mergedColumns(stored.columns, incoming.columns)
      guard !changed.isEmpty else { return nil }
      var columns = stored.columns
      for column in changed { columns[column.name] = column }
      merged = RowChange(
        table: id.table, key: incoming.key, stamp: incoming.stamp, isDeleted: false, columns: columns.values.sorted { $0.name < $1.name })
    }
    // Only a change is checked: a row the device sends back as it got it (a pull it applied
    // while changes of its own waited) changes nothing, in a record it may only read too.
    if let stored { try await checkWritable(stored, id: id) }
    var row = StoredRow(id: id, state: merged, root: stored?.root, parent: stored?.parent, writer: stored?.writer ?? user, waiting: nil)
    let values = try resolvedValues(merged, table: table)
    if merged.isDeleted {
      if let root = stored?.root, root == id, stored?.state.isDeleted == false, try await owner(of: root) != user {
        throw SyncRefusal(
          .forbidden, "\(user) may not delete the record \(id): only its owner deletes a shared record; nothing was written", row: id)
      }
    } else {
      (row.parent, row.root) = try await placeInTree(id, table: table, values: values)
    }
    known.rows[id] = .some(row)
    if let old = stored?.root, let new = row.root, old != new { known.moves.append((id, new)) }
    return (row, table, values)
  }

  /// Refuses a change to a row the user may not write: in a record not theirs nor shared with
  /// them for writing, or a deleted row someone else brought.
  private func checkWritable(_ stored: StoredRow, id: RowID) async throws {
    guard let root = stored.root else {
      guard stored.writer == user else {
        throw SyncRefusal(.forbidden, "the row \(id) belongs to another user; nothing was written", row: id)
      }
      return
    }
    let level = try await level(root)
    guard level >= .write else {
      throw SyncRefusal(
        .forbidden,
        level == .read
          ? "\(user) may read the record \(root) but not change it (the row \(id) is in it); nothing was written"
          : "the row \(id) is in the record \(root), which is not shared with \(user); nothing was written",
        row: id)
    }
  }

  /// The row's parent and root record, from the merged values of its references: the first
  /// reference to a synced table that holds a value names the parent, whose record the row
  /// joins; every other one must point into the same record. A row without one is a record of
  /// its own, owned by the user who creates it.
  private func placeInTree(_ id: RowID, table: ServerTable, values: [String: StoredValue]) async throws -> (RowID?, RowID) {
    var parent: RowID?
    var root: RowID?
    for reference in table.parents {
      guard case .text(let key)? = values[reference.column] else { continue }
      let target = RowID(table: reference.table, key: key)
      guard let referenced = try await stored(target), let referencedRoot = referenced.root else {
        throw SyncRefusal(
          .unprocessableContent,
          "the row \(id) refers to the row \(target), which the server does not have; push the row it refers to first; nothing was written")
      }
      if let root, referencedRoot != root {
        throw SyncRefusal(
          .forbidden,
          "the row \(id) refers to rows of two records, \(root) and \(referencedRoot); a row belongs to one record; nothing was written",
          row: id)
      }
      if parent == nil { parent = target }
      root = referencedRoot
    }
    guard let root else {
      switch try await owner(of: id) {
      case nil: try await own(id)
      case user?: break
      default:
        if try await level(id) < .write {
          throw SyncRefusal(.forbidden, "the record \(id) is not shared with \(user) for writing; nothing was written", row: id)
        }
      }
      return (nil, id)
    }
    let level = try await level(root)
    guard level >= .write else {
      throw SyncRefusal(
        .forbidden, "\(user) may not add or move rows into the record \(root) (the row \(id)); nothing was written", row: id)
    }
    return (parent, root)
  }

  private func level(_ root: RowID) async throws -> Access.Level {
    if let level = known.levels[root] { return level }
    let level = try await access.level(root)
    known.levels[root] = level
    return level
  }

  private func owner(of root: RowID) async throws -> String? {
    if let owner = known.owners[root] { return owner }
    let owner = try await access.owner(of: root)
    known.owners[root] = .some(owner)
    return owner
  }

  private func own(_ root: RowID) async throws {
    try await access.own(root)
    known.owners[root] = .some(user)
    known.levels[root] = .owner
  }

  /// Moves a row's descendants to its new record, numbered with this push so that the users of
  /// the new record get them.
  private func move(_ id: RowID, to root: RowID) async throws {
    try await sql(
      """
      WITH RECURSIVE tree(table_name, row_key) AS (
        SELECT table_name, row_key FROM strata_sync.rows WHERE parent_table = \(id.table) AND parent_key = \(id.key)
        UNION SELECT r.table_name, r.row_key FROM strata_sync.rows r JOIN tree t ON r.parent_table = t.table_name AND r.parent_key = t.row_key)
      UPDATE strata_sync.rows SET root_table = \(root.table), root_key = \(root.key), seq = \(seq)
      WHERE (table_name, row_key) IN (SELECT table_name, row_key FROM tree)
      """
    ).execute(db)
  }

  /// The values a living row's columns hold, by the table's merge rules; a value the server's
  /// column does not take refuses the changeset. A renamed column's value is under its current
  /// name, also for a row that waited since before the server's migration renamed it.
  private func resolvedValues(_ row: RowChange, table: ServerTable) throws -> [String: StoredValue] {
    var values: [String: StoredValue] = [:]
    for column in row.underCurrentNames(table.renames).columns {
      values[column.name] = try column.resolved(by: table.rule(of: column.name))
    }
    return values
  }

  // MARK: Tables

  /// Writes the merged rows to their tables, a statement per table (deletes first), all in one
  /// savepoint; when a constraint refuses a row, the savepoint is rolled back and each row is
  /// written in a savepoint of its own, in the push's order, so that the rows refused wait
  /// (kept in sync's table with the reason, tried again after every push) and the others are
  /// written.
  private func materialize(_ writes: [TableWrite]) async throws {
    var groups: [[TableWrite]] = []
    var byTable: [[TableWrite]] = []
    for write in writes {
      if let last = byTable.last?.last, last.table.name == write.table.name {
        byTable[byTable.count - 1].append(write)
      } else {
        byTable.append([write])
      }
    }
    for table in byTable {
      for write in table.filter({ $0.values == nil }) + table.filter({ $0.values != nil }) {
        if let last = groups.last?.last, last.batches(with: write) {
          groups[groups.count - 1].append(write)
        } else {
          groups.append([write])
        }
      }
    }
    try await sql("SAVEPOINT strata_sync_push").execute(db)
    do {
      for group in groups {
        for statement in TableWrite.statements(group) { try await statement.execute(db) }
      }
      try await sql("RELEASE SAVEPOINT strata_sync_push").execute(db)
      return
    } catch let error as PostgreSQLError where Self.isRefusal(error) {
      try await sql("ROLLBACK TO SAVEPOINT strata_sync_push").execute(db)
    }
    for write in writes {
      guard let waiting = try await materialize(write) else { continue }
      if write.values == nil {
        try await wait(write.row, waiting)
      } else {
        try await keepOut(write.row, waiting)
      }
    }
  }

  /// Whether PostgreSQL refused a row for its values (class 22) or a constraint (class 23).
  private static func isRefusal(_ error: PostgreSQLError) -> Bool {
    error.sqlState.map { $0.hasPrefix("23") || $0.hasPrefix("22") } == true
  }

  /// Why a row waits, and the row it waits for (whose next change may let it in), when known.
  struct Waiting {
    var reason: String
    var blocker: RowID?
  }

  /// Writes one row to its table (or deletes it); returns why it waits when it cannot be
  /// there: its parent is not in its table, or a row inserted before it holds one of its
  /// unique values. A row inserted before the rows that hold its unique values takes them:
  /// those rows wait instead, as on every replica (``RowMerge/keepsUniqueValue(_:over:)``).
  private func materialize(_ write: TableWrite) async throws -> Waiting? {
    guard let refusal = try await attempt(write) else { return nil }
    let row = known.rows[write.row] ?? nil
    guard refusal.sqlState == "23505", let values = write.values, let row else {
      return Waiting(reason: refusal.message, blocker: refusal.sqlState == "23503" ? row?.parent : nil)
    }
    var later: [(RowID, Waiting)] = []
    for unique in write.table.uniques {
      let bound = unique.compactMap { column in values.first { $0.column == column }?.value }
      guard bound.count == unique.count, !bound.contains(.null) else { continue }
      let described = zip(unique, bound).map { "\($0) = \($1)" }.joined(separator: ", ")
      for holder in try await holders(of: zip(unique, bound).map { ($0, $1) }, in: write) {
        guard let held = try await stored(holder), !held.state.isDeleted else { return Waiting(reason: refusal.message, blocker: holder) }
        if RowMerge.keepsUniqueValue((held.state.stamp, held.state.key), over: (row.state.stamp, row.state.key)) {
          return Waiting(reason: "its unique value (\(described)) is held by the row \(holder.key), inserted earlier; change one of them", blocker: holder)
        }
        later.append(
          (holder, Waiting(reason: "its unique value (\(described)) is held by the row \(write.row.key), inserted earlier; change one of them", blocker: write.row)))
      }
    }
    guard !later.isEmpty else { return Waiting(reason: refusal.message, blocker: nil) }
    for (holder, waiting) in later { try await keepOut(holder, waiting) }
    return try await attempt(write).map { Waiting(reason: $0.message, blocker: nil) }
  }

  /// Runs a row's write in a savepoint of its own; the refusal, when a constraint refused it.
  private func attempt(_ write: TableWrite) async throws -> PostgreSQLError? {
    try await sql("SAVEPOINT strata_sync_row").execute(db)
    do {
      for statement in TableWrite.statements([write]) { try await statement.execute(db) }
      try await sql("RELEASE SAVEPOINT strata_sync_row").execute(db)
      return nil
    } catch let error as PostgreSQLError where Self.isRefusal(error) {
      try await sql("ROLLBACK TO SAVEPOINT strata_sync_row").execute(db)
      return error
    }
  }

  /// The other rows of the write's table whose columns hold these values.
  private func holders(of values: [(column: String, value: QueryBinding)], in write: TableWrite) async throws -> [RowID] {
    var fragment = QueryFragment(raw: "SELECT CAST(")
    fragment.append(quoting: write.table.key)
    fragment.append(raw: " AS text) FROM ")
    fragment.append(quoting: write.table.name)
    fragment.append(raw: " WHERE ")
    for (column, value) in values {
      fragment.append(quoting: column)
      fragment.append(raw: " = ")
      fragment.append(QueryFragment(binding: value))
      fragment.append(raw: " AND ")
    }
    fragment.append(quoting: write.table.key)
    fragment.append(raw: " <> ")
    fragment.append(QueryFragment(binding: write.key))
    return try await sql("\(Fragment(fragment))", as: String.self).fetchAll(db).map { RowID(table: write.table.name, key: $0) }
  }

  /// Takes a row out of its table to wait for `reason`, with the rows below it that are in
  /// theirs (they wait for it), deepest first; numbered with this push, so that the devices
  /// that read them hear of it.
  private func keepOut(_ id: RowID, _ waiting: Waiting) async throws {
    let below = try await sql(
      """
      WITH RECURSIVE tree(table_name, row_key, parent_table, parent_key, depth) AS (
        SELECT table_name, row_key, parent_table, parent_key, 1 FROM strata_sync.rows
        WHERE parent_table = \(id.table) AND parent_key = \(id.key) AND waiting IS NULL
        UNION ALL SELECT r.table_name, r.row_key, r.parent_table, r.parent_key, t.depth + 1
        FROM strata_sync.rows r JOIN tree t ON r.parent_table = t.table_name AND r.parent_key = t.row_key WHERE r.waiting IS NULL)
      SELECT table_name, row_key, parent_table, parent_key FROM tree ORDER BY depth DESC
      """,
      as: (String, String, String, String).self
    ).fetchAll(db)
    for (table, key, parentTable, parentKey) in below {
      let child = RowID(table: table, key: key)
      guard try await removeFromTable(child) else { continue }
      let column = tables[table]?.parents.first { $0.table == parentTable }?.column ?? "its reference"
      try await wait(
        child,
        Waiting(
          reason: "its parent in \(parentTable) (\(column) = \(parentKey)) is not there: deleted on another replica, or waiting itself",
          blocker: RowID(table: parentTable, key: parentKey)))
    }
    _ = try await removeFromTable(id)
    try await wait(id, waiting)
  }

  /// Marks a row waiting, with what it waits for; a row that leaves its table may let in rows
  /// that wait for it.
  private func wait(_ id: RowID, _ waiting: Waiting) async throws {
    try await sql(
      """
      UPDATE strata_sync.rows SET waiting = \(waiting.reason), blocked_table = \(waiting.blocker?.table as String?), blocked_key = \(waiting.blocker?.key as String?),
        seq = \(seq)
      WHERE table_name = \(id.table) AND row_key = \(id.key)
      """
    ).execute(db)
    known.touched.insert(id)
  }

  /// Deletes a row from its table; whether it was there.
  private func removeFromTable(_ id: RowID) async throws -> Bool {
    guard let table = tables[id.table], let key = table.keyKind.binding(forReplicaValue: .text(id.key)) else { return false }
    var fragment = QueryFragment(raw: "DELETE FROM ")
    fragment.append(quoting: table.name)
    fragment.append(raw: " WHERE ")
    fragment.append(quoting: table.key)
    fragment.append(raw: " = ")
    fragment.append(QueryFragment(binding: key))
    fragment.append(raw: " RETURNING 1")
    return try await sql("\(Fragment(fragment))", as: Int.self).fetchOne(db) != nil
  }

  /// Tries again the rows that wait for a row this push wrote, took out of its table or placed
  /// (and those that wait for no row in particular), parents first, until no more can be
  /// placed; a row placed is numbered with this push, so that the devices that read it hear of
  /// it. Rows that wait for rows the push did not touch are not read.
  private func placeWaitingRows() async throws {
    // Each round places a row or ends it; a row evicted in a round only by one inserted earlier.
    var placed = true
    while placed {
      placed = false
      let touched = Array(known.touched)
      var candidates: [RowID] = []
      for start in stride(from: 0, to: max(touched.count, 1), by: 1_000) {
        let part = Array(touched[start..<min(start + 1_000, touched.count)])
        let blockers = part.isEmpty ? Fragment(QueryFragment(raw: "NULL")) : RowID.bound(part)
        candidates += try await sql(
          """
          SELECT table_name, row_key FROM strata_sync.rows
          WHERE waiting IS NOT NULL AND (blocked_table IS NULL OR (blocked_table, blocked_key) IN (\(blockers)))
          """,
          as: (String, String).self
        ).fetchAll(db).map { RowID(table: $0, key: $1) }
      }
      let waiting = Set(candidates).sorted { (tables[$0.table]?.depth ?? 0) < (tables[$1.table]?.depth ?? 0) }
      for id in waiting {
        guard let table = tables[id.table], let row = try await StoredRow.load(id, in: db) else { continue }
        known.rows[id] = .some(row)
        if let still = try await materialize(try TableWrite(row, table: table, values: try resolvedValues(row.state, table: table))) {
          try await sql(
            "UPDATE strata_sync.rows SET waiting = \(still.reason), blocked_table = \(still.blocker?.table as String?), blocked_key = \(still.blocker?.key as String?) WHERE table_name = \(id.table) AND row_key = \(id.key)"
          ).execute(db)
        } else {
          try await sql("UPDATE strata_sync.rows SET waiting = NULL, seq = \(seq) WHERE table_name = \(id.table) AND row_key = \(id.key)").execute(db)
          known.touched.insert(id)
          placed = true
        }
      }
    }
  }
}

/// What one push has read and decided.
final class PushState: @unchecked Sendable {
  // One push runs on one task, statement after statement: nothing here is shared.
  var rows: [RowID: StoredRow?] = [:]
  var levels: [RowID: Access.Level] = [:]
  var owners: [RowID: String?] = [:]
  /// Rows whose record changed, with the new record: their descendants follow.
  var moves: [(RowID, RowID)] = []
  /// Rows the push wrote, took out of their tables or placed: the rows waiting for them are
  /// tried again.
  var touched: Set<RowID> = []
}
#endif
