import StrataCore

/// The changes one replica has that another has not seen: whole rows, each with the stamps of
/// its insert or delete and of every column's value, which the receiver merges column by column.
///
/// Make one with `SyncReplica.changes(since:limit:)`, send it (``encoded()`` is compact and
/// versioned; see the Sync article for the format), and merge it on another replica with
/// `SyncReplica.apply(_:)`. Applying is idempotent and independent of order: a changeset can be
/// applied twice, late, or after a newer one.
public struct Changeset: Hashable, Sendable {
  /// The replica that made it.
  public var replica: String
  /// The last migration the sending replica had run when it made the changeset.
  public var schemaVersion: String
  /// Where the sender's next changeset for this peer starts: every change the sender had
  /// recorded up to this cursor is in this one or an earlier one from the same cursor.
  public var cursor: SyncCursor
  /// The changed rows.
  public var rows: [RowChange]

  /// A changeset of `rows` from `replica`; `SyncReplica.changes(since:limit:)` makes them.
  public init(replica: String, schemaVersion: String, cursor: SyncCursor, rows: [RowChange]) {
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.cursor = cursor
    self.rows = rows
  }
}

extension Changeset {
  /// Refuses a changeset no replica makes, before anything of it is applied: a replica id that
  /// is not 32 lowercase hexadecimal digits (ids become keys of the version vectors' JSON), or a
  /// column without a value. (The binary format's reader refuses the same, at the byte.)
  package func check() throws {
    let stamps = [SyncStamp(clock: 0, replica: replica)]
      + rows.flatMap { row in [row.stamp] + row.columns.flatMap { $0.values.map(\.stamp) } }
    let replicas = Set(stamps.map(\.replica))
      .union(rows.flatMap { $0.columns.flatMap { $0.values.flatMap(\.versions.clocks.keys) + ($0.parts?.keys.map { $0 } ?? []) } })
    if let bad = replicas.first(where: { !ReplicaID.isValid($0) }) {
      throw SyncError("the changeset names the replica \(bad.debugDescription), which is not 32 lowercase hexadecimal digits; nothing was applied")
    }
    for row in rows {
      if let empty = row.columns.first(where: \.values.isEmpty) {
        throw SyncError("the changeset's column \(empty.name) of a row of \(row.table) has no value; nothing was applied")
      }
    }
  }
}

/// A position in a replica's own sequence of recorded changes, which a peer keeps to ask for
/// what came after it.
public struct SyncCursor: Hashable, Comparable, Sendable, Codable {
  /// The stamp of the last change covered, in the sending replica's own order.
  public var sequence: Int64

  /// The cursor at `sequence`, as a peer stored it.
  public init(_ sequence: Int64) {
    self.sequence = sequence
  }

  /// Before every change.
  public static let start = SyncCursor(0)

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}

/// One row as a replica holds it: its life, and, while it lives, every column's value(s).
public struct RowChange: Hashable, Sendable {
  /// The synced table.
  public var table: String
  /// The row's key, as SQLite stores it.
  public var key: StoredValue
  /// The stamp of the row's latest insert or delete.
  public var stamp: SyncStamp
  /// Whether that was a delete.
  public var isDeleted: Bool
  /// Every column of a living row; none for a deleted one.
  public var columns: [ColumnState]

  /// A row as a replica holds it.
  public init(table: String, key: StoredValue, stamp: SyncStamp, isDeleted: Bool, columns: [ColumnState]) {
    self.table = table
    self.key = key
    self.stamp = stamp
    self.isDeleted = isDeleted
    self.columns = columns
  }
}

/// A column of a row: its value, or the values written to it concurrently, oldest first; for a
/// counter, its value and each replica's share.
public struct ColumnState: Hashable, Sendable {
  /// The column's name.
  public var name: String
  /// One value, or several written concurrently (which the merge rule combines).
  public var values: [ColumnValue]
  /// For a counter: each replica's total increments, with the clock of its latest, by replica.
  public var parts: [String: CounterPart]?

  /// A column's state: its value(s), and a counter's shares.
  public init(name: String, values: [ColumnValue], parts: [String: CounterPart]? = nil) {
    self.name = name
    self.values = values
    self.parts = parts
  }
}

/// A value written to a column, with its stamp and the writes it replaced.
public struct ColumnValue: Hashable, Sendable {
  /// The value, as SQLite stores it.
  public var value: StoredValue
  /// When and where it was written.
  public var stamp: SyncStamp
  /// The writes it was made on top of, its own included.
  public var versions: VersionVector

  /// A value written at `stamp` on top of `versions`.
  public init(value: StoredValue, stamp: SyncStamp, versions: VersionVector) {
    self.value = value
    self.stamp = stamp
    self.versions = versions
  }
}

/// One replica's share of a counter: the sum of its increments, as of its latest.
public struct CounterPart: Hashable, Sendable {
  /// The clock of the replica's latest increment.
  public var clock: Int64
  /// The sum of the replica's increments (an insert's value counts as its inserter's).
  public var total: Int64

  /// A replica's share.
  public init(clock: Int64, total: Int64) {
    self.clock = clock
    self.total = total
  }
}
