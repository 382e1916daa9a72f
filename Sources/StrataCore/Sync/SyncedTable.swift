/// A table whose rows sync between replicas (`// @Synced` above its model), as the generated
/// `StrataSyncedTables.all` describes it for the sync engine: its key and how each column's
/// concurrent writes combine.
///
/// The migration that syncs the table adds triggers that record every write to it; the engine
/// (`StrataSync`) reads what they record and merges what other replicas send.
public struct SyncedTable: Sendable {
  /// The table's name.
  public var name: String
  /// Its key column: a UUID, which replicas pick without asking each other.
  public var key: String
  /// The columns that sync, other than the key, in the table's order: every stored column the
  /// model declares (generated columns are computed on each replica).
  public var columns: [SyncedColumn]

  /// A synced table; the generated `StrataSyncedTables.all` lists the app's.
  public init(_ name: String, key: String, columns: [SyncedColumn]) {
    self.name = name
    self.key = key
    self.columns = columns
  }

  /// The column called `name`, if it syncs.
  public func column(named name: String) -> SyncedColumn? {
    columns.first { $0.name == name }
  }
}

/// A column of a synced table, and how writes made to it concurrently combine.
public struct SyncedColumn: Sendable {
  /// The column's name.
  public var name: String
  /// How concurrent writes combine (`// @Merge(…)` above the property); the latest write wins
  /// unless the model says otherwise.
  public var merge: SyncMerge
  /// The name older app versions know it by (`// @Renamed(from:)` above the property): while a
  /// compatibility window keeps both columns, sync merges them as this one column, and sends it
  /// under both names for the older versions.
  public var formerName: String?

  /// A synced column that merges by `merge`, called `formerName` before a rename.
  public init(_ name: String, merge: SyncMerge = .latest, formerName: String? = nil) {
    self.name = name
    self.merge = merge
    self.formerName = formerName
  }
}
