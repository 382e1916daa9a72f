/// The tables sync keeps beside a database's synced tables, which the migration that first syncs
/// a table creates and the sync engine reads and writes. Their names are here once, for the
/// generator (which writes the capture triggers) and the engine (which reads what they record).
public enum SyncTables {
  /// One row: this replica's id, its hybrid logical clock, its change counter, and whether the
  /// engine is applying a changeset (the triggers record nothing then).
  public static let replica = "strata_sync_replica"
  /// A row's life: the stamp of its latest insert or delete, per synced row.
  public static let rows = "strata_sync_rows"
  /// A column's latest write(s) since its row's insert: stamp, version vector, a counter's parts.
  public static let cells = "strata_sync_cells"
  /// The values of a column written concurrently on several replicas, each with its stamp.
  public static let siblings = "strata_sync_siblings"
  /// The values of rows the engine keeps out of their table for now (a parent not there yet, a
  /// unique value another row holds), and of columns this replica's schema does not have yet.
  public static let held = "strata_sync_held"
  /// Why each held row is held.
  public static let waiting = "strata_sync_waiting"

  /// The rows a sync server keeps out of its own tables (a unique value held by a row this
  /// user cannot read, a parent deleted there): this replica keeps them out too until the
  /// server places them. The engine makes it the first time a server names one.
  public static let serverWaiting = "strata_sync_server_waiting"

  /// Per sync server, the cursors of what this replica pushed and pulled: the sync client makes
  /// it when it first syncs.
  public static let peers = "strata_sync_peers"

  /// Every table sync keeps: internal to the app's schema, never a model's.
  public static let all: Set<String> = [replica, rows, cells, siblings, held, waiting, serverWaiting, peers]

  /// The name of a capture trigger on `table`: `strata_sync_<table>_insert`, `…_delete`,
  /// `…_key` (which refuses a change of a synced row's key), `…_update_<column>`.
  public static func trigger(_ table: String, _ event: String) -> String {
    "strata_sync_\(table)_\(event)"
  }

  /// How many low bits of a stamp's clock count events within one millisecond: the clock is
  /// `milliseconds since 1970 << 16 + counter`, a hybrid logical clock in one integer.
  public static let counterBits = 16

  /// The wall clock stamps start from, in milliseconds since 1970, as SQL: SQLite's own clock,
  /// which the capture triggers and the engine both read, so that a device whose clock is off
  /// stamps its app's writes and the engine's alike.
  public static let wallClockMilliseconds = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
}
