import StrataCore

/// The changes one replica has that another has not seen: whole rows, each with the stamps of
/// its insert or delete and of every column's value, which the receiver merges column by column.
///
/// Make one with ``SyncReplica/changes(since:limit:)``, send it (``encoded()`` is compact and
/// versioned; see the Sync article for the format), and merge it on another replica with
/// ``SyncReplica/apply(_:)``. Applying is idempotent and independent of order: a changeset can be
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

  public init(replica: String, schemaVersion: String, cursor: SyncCursor, rows: [RowChange]) {
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.cursor = cursor
    self.rows = rows
  }
}

/// A position in a replica's own sequence of recorded changes, which a peer keeps to ask for
/// what came after it.
public struct SyncCursor: Hashable, Comparable, Sendable, Codable {
  public var sequence: Int64

  public init(_ sequence: Int64) {
    self.sequence = sequence
  }

  /// Before every change.
  public static let start = SyncCursor(0)

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}

/// One row as a replica holds it: its life, and, while it lives, every column's value(s).
public struct RowChange: Hashable, Sendable {
  public var table: String
  /// The row's key, as SQLite stores it.
  public var key: StoredValue
  /// The stamp of the row's latest insert or delete.
  public var stamp: SyncStamp
  /// Whether that was a delete.
  public var isDeleted: Bool
  /// Every column of a living row; none for a deleted one.
  public var columns: [ColumnState]

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
  public var name: String
  /// One value, or several written concurrently (which the merge rule combines).
  public var values: [ColumnValue]
  /// For a counter: each replica's total increments, with the clock of its latest, by replica.
  public var parts: [String: CounterPart]?

  public init(name: String, values: [ColumnValue], parts: [String: CounterPart]? = nil) {
    self.name = name
    self.values = values
    self.parts = parts
  }
}

/// A value written to a column, with its stamp and the writes it replaced.
public struct ColumnValue: Hashable, Sendable {
  public var value: StoredValue
  public var stamp: SyncStamp
  public var versions: VersionVector

  public init(value: StoredValue, stamp: SyncStamp, versions: VersionVector) {
    self.value = value
    self.stamp = stamp
    self.versions = versions
  }
}

/// One replica's share of a counter: the sum of its increments, as of its latest.
public struct CounterPart: Hashable, Sendable {
  public var clock: Int64
  public var total: Int64

  public init(clock: Int64, total: Int64) {
    self.clock = clock
    self.total = total
  }
}
