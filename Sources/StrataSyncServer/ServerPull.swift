#if SyncServer
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// What a user's device asks for: the rows of the records the user may read that changed after
/// its cursor (a push's number), whole, and the records it may no longer read.
///
/// A record the user gained (one they own, or a share they accepted at number N) is sent whole
/// to a device whose cursor is before N, though its rows changed earlier.
struct ServerPull {
  let db: PostgreSQLConnection
  let user: String

  struct Result {
    var rows: [RowChange]
    /// The cursor that covers them: the device asks from it next.
    var through: Int64
    /// Records shared with the user whose share ended after the cursor.
    var revoked: [RowID]
    /// The rows among `rows` that the server keeps out of its tables.
    var waiting: [RowID]
  }

  /// Runs in one snapshot (the caller's REPEATABLE READ transaction), so that the cursor it
  /// returns covers exactly the pushes whose rows it saw.
  func changes(after cursor: Int64, limit: Int) async throws -> Result {
    let newest = try await sql("SELECT seq FROM strata_sync.clock", as: Int64.self).fetchOne(db) ?? 0
    let found = try await visibleRows(numbered: ">", cursor, limit: limit + 1)
    var rows = found
    var through = newest
    if found.count > limit, let cut = found.last?.number {
      // A push's rows share its number: a page ends before the first number it cannot hold
      // whole, or, when one push alone passes the limit, holds all of that push.
      rows = found.filter { $0.number < cut }
      through = cut - 1
      if rows.isEmpty {
        rows = try await visibleRows(numbered: "=", cut, limit: nil)
        through = cut
      }
    }
    let revoked = try await sql(
      """
      SELECT root_table, root_key FROM strata_sync.revoked v
      WHERE v.user_id = \(user) AND v.seq > \(cursor) AND v.seq <= \(through)
        AND NOT EXISTS (SELECT 1 FROM strata_sync.shares s WHERE s.root_table = v.root_table AND s.root_key = v.root_key
          AND s.user_id = v.user_id AND s.accepted_seq IS NOT NULL)
      """,
      as: (String, String).self
    ).fetchAll(db).map { RowID(table: $0, key: $1) }
    return Result(
      rows: try rows.map { try StoredRow.decode($0.state) }, through: through, revoked: revoked,
      waiting: rows.filter(\.waits).map { RowID(table: $0.table, key: $0.key) })
  }

  /// The states of the rows the user may read whose number (the push that last changed them,
  /// or the share that gave them to the user, whichever is later) compares to `number` by
  /// `comparison`, in order of their numbers.
  private func visibleRows(numbered comparison: String, _ number: Int64, limit: Int?) async throws -> [VisibleRow] {
    try await sql(
      """
      WITH access(root_table, root_key, since) AS (
        SELECT root_table, root_key, 0::bigint FROM strata_sync.roots WHERE owner = \(user)
        UNION ALL
        SELECT root_table, root_key, accepted_seq FROM strata_sync.shares WHERE user_id = \(user) AND accepted_seq IS NOT NULL)
      SELECT r.state, greatest(r.seq, a.since) AS number, r.table_name, r.row_key, r.waiting IS NOT NULL
      FROM strata_sync.rows r JOIN access a ON a.root_table = r.root_table AND a.root_key = r.root_key
      WHERE greatest(r.seq, a.since) \(raw: comparison) \(number)
      ORDER BY number, r.table_name, r.row_key
      LIMIT \(Int64(limit ?? Int(Int32.max)))
      """,
      as: ([UInt8], Int64, String, String, Bool).self
    ).fetchAll(db).map { VisibleRow(state: $0, number: $1, table: $2, key: $3, waits: $4) }
  }

  private struct VisibleRow {
    var state: [UInt8]
    var number: Int64
    var table: String
    var key: String
    /// Whether the server keeps it out of its table.
    var waits: Bool
  }
}
#endif
