#if SyncServer
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// A synced row as the server keeps it in `strata_sync.rows`.
struct StoredRow: Sendable {
  var id: RowID
  /// Its merged state: life, and every column's values and stamps.
  var state: RowChange
  /// The root record it belongs to; nil for a row the server knows only as deleted.
  var root: RowID?
  var parent: RowID?
  /// The user whose push first brought it.
  var writer: String
  /// Why it is kept out of its table, if it is.
  var waiting: String?

  /// The row as the server keeps it; locked until the transaction ends unless `locking` is
  /// false (a read-only transaction's read).
  static func load(_ id: RowID, locking: Bool = true, in db: PostgreSQLConnection) async throws -> StoredRow? {
    try await loadAll([id], locking: locking, in: db)[id]
  }

  /// The rows of `ids` the server has, locked until the transaction ends unless `locking` is
  /// false: a push's rows, read in statements of at most a thousand.
  static func loadAll(_ ids: [RowID], locking: Bool = true, in db: PostgreSQLConnection) async throws -> [RowID: StoredRow] {
    var found: [RowID: StoredRow] = [:]
    for start in stride(from: 0, to: ids.count, by: 1_000) {
      let rows = try await sql(
        """
        SELECT table_name, row_key, state, root_table, root_key, parent_table, parent_key, writer, waiting FROM strata_sync.rows
        WHERE (table_name, row_key) IN (\(RowID.bound(Array(ids[start..<min(start + 1_000, ids.count)]))))
        ORDER BY table_name, row_key\(raw: locking ? " FOR UPDATE" : "")
        """,
        as: (String, String, [UInt8], String?, String?, String?, String?, String, String?).self
      ).fetchAll(db)
      for (table, key, state, rootTable, rootKey, parentTable, parentKey, writer, waiting) in rows {
        let id = RowID(table: table, key: key)
        found[id] = StoredRow(
          id: id, state: try decode(state), root: RowID(rootTable, rootKey), parent: RowID(parentTable, parentKey), writer: writer,
          waiting: waiting)
      }
    }
    return found
  }

  /// Writes the states of `rows`, a statement per 500; `seq` is the push that changed them.
  static func saveAll(_ rows: [StoredRow], seq: Int64, in db: PostgreSQLConnection) async throws {
    for start in stride(from: 0, to: rows.count, by: 500) {
      var fragment = QueryFragment(
        raw: "INSERT INTO strata_sync.rows (table_name, row_key, root_table, root_key, parent_table, parent_key, writer, state, seq, waiting) VALUES ")
      for (offset, row) in rows[start..<min(start + 500, rows.count)].enumerated() {
        fragment.append(raw: offset == 0 ? "(" : ", (")
        let values: [QueryBinding] = [
          .text(row.id.table), .text(row.id.key), text(row.root?.table), text(row.root?.key), text(row.parent?.table),
          text(row.parent?.key), .text(row.writer), .blob(row.encoded), .integer(seq), text(row.waiting),
        ]
        for (index, value) in values.enumerated() {
          if index > 0 { fragment.append(raw: ", ") }
          fragment.append(QueryFragment(binding: value))
        }
        fragment.append(raw: ")")
      }
      fragment.append(
        raw: """
           ON CONFLICT (table_name, row_key) DO UPDATE SET
            root_table = excluded.root_table, root_key = excluded.root_key, parent_table = excluded.parent_table,
            parent_key = excluded.parent_key, state = excluded.state, seq = excluded.seq, waiting = excluded.waiting
          """)
      try await Fragment.statement(fragment).execute(db)
    }
  }

  private static func text(_ value: String?) -> QueryBinding {
    value.map(QueryBinding.text) ?? .null
  }

  /// The state as a one-row changeset, in the format clients read.
  var encoded: [UInt8] {
    Changeset(replica: String(repeating: "0", count: 32), schemaVersion: "", cursor: .start, rows: [state]).encoded()
  }

  static func decode(_ bytes: [UInt8]) throws -> RowChange {
    guard let row = try Changeset(decoding: bytes).rows.first else {
      throw SyncRefusal(.internalServerError, "strata_sync.rows holds a state without a row")
    }
    return row
  }

  /// The column states of a living row, by name.
  var columns: [String: ColumnState] {
    Dictionary(state.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

extension RowID {
  /// `(table, key), …`, bound: rows in a `(table_name, row_key) IN (…)`.
  static func bound(_ ids: [RowID]) -> Fragment {
    var fragment = QueryFragment()
    for (offset, id) in ids.enumerated() {
      fragment.append(raw: offset == 0 ? "(" : ", (")
      fragment.append(QueryFragment(binding: .text(id.table)))
      fragment.append(raw: ", ")
      fragment.append(QueryFragment(binding: .text(id.key)))
      fragment.append(raw: ")")
    }
    return Fragment(fragment)
  }

  init?(_ table: String?, _ key: String?) {
    guard let table, let key else { return nil }
    self.init(table: table, key: key)
  }
}
#endif
