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
    return try await sharedLevels(of: [root])[root] ?? .none
  }

  func owner(of root: RowID) async throws -> String? {
    try await owners(of: [root])[root]
  }

  /// The owners of the records of `roots` the server has.
  func owners(of roots: [RowID]) async throws -> [RowID: String] {
    guard !roots.isEmpty else { return [:] }
    let found = try await sql(
      "SELECT root_table, root_key, owner FROM strata_sync.roots WHERE (root_table, root_key) IN (\(RowID.bound(roots)))",
      as: (String, String, String).self
    ).fetchAll(db)
    return Dictionary(found.map { (RowID(table: $0, key: $1), $2) }, uniquingKeysWith: { first, _ in first })
  }

  /// What the user may do in the records of `roots` shared with them and accepted.
  func sharedLevels(of roots: [RowID]) async throws -> [RowID: Level] {
    guard !roots.isEmpty else { return [:] }
    let found = try await sql(
      """
      SELECT root_table, root_key, access FROM strata_sync.shares
      WHERE user_id = \(user) AND accepted_seq IS NOT NULL AND (root_table, root_key) IN (\(RowID.bound(roots)))
      """,
      as: (String, String, String).self
    ).fetchAll(db)
    return Dictionary(found.map { (RowID(table: $0, key: $1), $2 == "write" ? Level.write : .read) }, uniquingKeysWith: { first, _ in first })
  }

  /// Records the user as the owner of a new root record.
  func own(_ root: RowID) async throws {
    try await sql("INSERT INTO strata_sync.roots (root_table, root_key, owner) VALUES (\(root.table), \(root.key), \(user))").execute(db)
  }
}
#endif
