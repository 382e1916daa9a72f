#if SyncServer
import StrataCore
import StrataPostgreSQL

/// Who may read and write a root record's rows: its owner, and the users it is shared with
/// who accepted (read-only or read-write). The server decides this alone, from its own tables,
/// for every pushed change and every pulled row.
struct Access {
  let db: PostgreSQLConnection
  let user: String

  enum Level: Comparable { case none, read, write, owner }

  func level(_ root: RowID) async throws -> Level {
    if try await owner(of: root) == user { return .owner }
    let access = try await sql(
      """
      SELECT access FROM strata_sync.shares
      WHERE root_table = \(root.table) AND root_key = \(root.key) AND user_id = \(user) AND accepted_seq IS NOT NULL
      """, as: String.self
    ).fetchOne(db)
    return switch access {
    case "write": .write
    case "read": .read
    default: .none
    }
  }

  func owner(of root: RowID) async throws -> String? {
    try await sql("SELECT owner FROM strata_sync.roots WHERE root_table = \(root.table) AND root_key = \(root.key)", as: String.self)
      .fetchOne(db)
  }

  /// Records the user as the owner of a new root record.
  func own(_ root: RowID) async throws {
    try await sql("INSERT INTO strata_sync.roots (root_table, root_key, owner) VALUES (\(root.table), \(root.key), \(user))").execute(db)
  }
}
#endif
