#if SyncServer
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// Sharing a record: its owner offers it to a user, read-only or read-write; the user accepts
/// (from then on their devices get its rows) or leaves; the owner revokes. Each runs in a
/// transaction that takes a number from the clock, as a push does, so that devices see the
/// change in order with the rows.
struct Sharing {
  let db: PostgreSQLConnection
  let user: String
  let seq: Int64

  private var access: Access { Access(db: db, user: user) }

  /// The record, checked to be a root record the server has.
  private func record(_ request: SyncShareRequest) async throws -> RowID {
    let root = RowID(table: request.table, key: request.key)
    guard try await access.owner(of: root) != nil else {
      throw SyncRefusal(.notFound, "there is no record \(root) (a row of a table with no synced parent)")
    }
    return root
  }

  func share(_ request: SyncShareRequest) async throws {
    let root = try await record(request)
    guard let other = request.user, !other.isEmpty, let level = request.access else {
      throw SyncRefusal(.badRequest, "sharing needs a user and an access, read or write")
    }
    guard try await access.owner(of: root) == user else {
      throw SyncRefusal(.forbidden, "only the owner of \(root) shares it")
    }
    guard other != user else { throw SyncRefusal(.badRequest, "\(user) owns \(root) already") }
    try await sql(
      """
      INSERT INTO strata_sync.shares (root_table, root_key, user_id, access) VALUES (\(root.table), \(root.key), \(other), \(level.rawValue))
      ON CONFLICT (root_table, root_key, user_id) DO UPDATE SET access = excluded.access
      """
    ).execute(db)
  }

  func accept(_ request: SyncShareRequest) async throws {
    let root = try await record(request)
    let updated = try await sql(
      """
      UPDATE strata_sync.shares SET accepted_seq = \(seq)
      WHERE root_table = \(root.table) AND root_key = \(root.key) AND user_id = \(user) AND accepted_seq IS NULL
      RETURNING 1
      """, as: Int.self
    ).fetchAll(db)
    guard !updated.isEmpty else {
      if try await access.level(root) >= .read { return }
      throw SyncRefusal(.notFound, "\(root) is not shared with \(user)")
    }
  }

  /// The owner revoking `request.user`'s share, or the user leaving (no user, or themselves).
  func end(_ request: SyncShareRequest) async throws {
    let root = try await record(request)
    let other = request.user ?? user
    if other != user, try await access.owner(of: root) != user {
      throw SyncRefusal(.forbidden, "only the owner of \(root) revokes a share of it")
    }
    try await sql(
      "DELETE FROM strata_sync.shares WHERE root_table = \(root.table) AND root_key = \(root.key) AND user_id = \(other)"
    ).execute(db)
    try await sql(
      "INSERT INTO strata_sync.revoked (user_id, root_table, root_key, seq) VALUES (\(other), \(root.table), \(root.key), \(seq))"
    ).execute(db)
  }

  func list() async throws -> SyncShareList {
    let rows = try await sql(
      """
      SELECT s.root_table, s.root_key, r.owner, s.user_id, s.access, s.accepted_seq IS NOT NULL
      FROM strata_sync.shares s JOIN strata_sync.roots r ON r.root_table = s.root_table AND r.root_key = s.root_key
      WHERE r.owner = \(user) OR s.user_id = \(user)
      ORDER BY 1, 2, 4
      """,
      as: (String, String, String, String, String, Bool).self
    ).fetchAll(db)
    let shares = rows.map { table, key, owner, other, level, accepted in
      SyncShare(table: table, key: key, owner: owner, user: other, access: SyncShareAccess(rawValue: level) ?? .read, accepted: accepted)
    }
    return SyncShareList(given: shares.filter { $0.owner == user }, received: shares.filter { $0.user == user })
  }
}
#endif
