#if SyncServer
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// Sync's own tables on the server, in a schema of their own (`strata_sync`), beside the app's
/// tables (which the app's migrations make and the server writes after merging), so that the
/// migrations' drift check and the app's queries never see them.
///
/// - `server`: the server's replica id, which signs what it sends.
/// - `clock`: one row, the sequence every push and share takes a number from; its row lock
///   also makes pushes commit one after another, in the order of their numbers, which is what
///   lets a client ask for "everything after N" without missing a change that commits late.
/// - `rows`: each synced row's merged state (a one-row changeset, its life and every column's
///   values and stamps), the root record it belongs to and its parent, the number of the push
///   that last changed it, and why it is kept out of its table, if it is, with the row it
///   waits for.
/// - `roots`, `shares`: who owns each root record, and whom the owner shared it with.
/// - `revoked`: shares that ended, so that the user's devices forget the record's rows.
enum ServerMetadata {
  static let version = 1

  static let setup = [
    "CREATE SCHEMA IF NOT EXISTS strata_sync",
    "CREATE TABLE IF NOT EXISTS strata_sync.server (id text PRIMARY KEY, version integer NOT NULL)",
    "CREATE TABLE IF NOT EXISTS strata_sync.clock (seq bigint NOT NULL)",
    "INSERT INTO strata_sync.clock (seq) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM strata_sync.clock)",
    """
    CREATE TABLE IF NOT EXISTS strata_sync.rows (
      table_name text NOT NULL, row_key text NOT NULL,
      root_table text, root_key text, parent_table text, parent_key text,
      writer text NOT NULL, state bytea NOT NULL, seq bigint NOT NULL, waiting text,
      PRIMARY KEY (table_name, row_key))
    """,
    "CREATE INDEX IF NOT EXISTS rows_by_seq ON strata_sync.rows (seq)",
    "CREATE INDEX IF NOT EXISTS rows_by_root ON strata_sync.rows (root_table, root_key, seq)",
    "CREATE INDEX IF NOT EXISTS rows_by_parent ON strata_sync.rows (parent_table, parent_key)",
    "CREATE INDEX IF NOT EXISTS rows_waiting ON strata_sync.rows (table_name) WHERE waiting IS NOT NULL",
    // What a waiting row waits for (the row holding its unique value, its parent): a push tries
    // again only the rows waiting for rows it touched. Tables made before these columns gain
    // them here; NULL (a row of before, or a refusal with no row to wait for) means "try after
    // every push".
    "ALTER TABLE strata_sync.rows ADD COLUMN IF NOT EXISTS blocked_table text, ADD COLUMN IF NOT EXISTS blocked_key text",
    "CREATE INDEX IF NOT EXISTS rows_by_blocker ON strata_sync.rows (blocked_table, blocked_key) WHERE waiting IS NOT NULL",
    """
    CREATE TABLE IF NOT EXISTS strata_sync.roots (
      root_table text NOT NULL, root_key text NOT NULL, owner text NOT NULL,
      PRIMARY KEY (root_table, root_key))
    """,
    "CREATE INDEX IF NOT EXISTS roots_by_owner ON strata_sync.roots (owner)",
    """
    CREATE TABLE IF NOT EXISTS strata_sync.shares (
      root_table text NOT NULL, root_key text NOT NULL, user_id text NOT NULL,
      access text NOT NULL CHECK (access IN ('read', 'write')), accepted_seq bigint,
      PRIMARY KEY (root_table, root_key, user_id))
    """,
    "CREATE INDEX IF NOT EXISTS shares_by_user ON strata_sync.shares (user_id)",
    """
    CREATE TABLE IF NOT EXISTS strata_sync.revoked (
      user_id text NOT NULL, root_table text NOT NULL, root_key text NOT NULL, seq bigint NOT NULL)
    """,
    "CREATE INDEX IF NOT EXISTS revoked_by_user ON strata_sync.revoked (user_id, seq)",
  ]

  /// Makes sync's tables when they are missing, and returns the server's replica id. Runs under
  /// a lock, so that server instances starting together make them once.
  static func prepare(_ db: PostgreSQLConnection) async throws -> String {
    try await sql("BEGIN").execute(db)
    do {
      try await sql("SELECT pg_advisory_xact_lock(\(Int64(0x5354_5241_5441_5359)))").execute(db)
      for statement in setup { try await SQLQuery<()>(raw: statement).execute(db) }
      try await sql(
        "INSERT INTO strata_sync.server (id, version) SELECT md5(random()::text || clock_timestamp()::text), \(version) WHERE NOT EXISTS (SELECT 1 FROM strata_sync.server)"
      ).execute(db)
      guard let (id, found) = try await sql("SELECT id, version FROM strata_sync.server", as: (String, Int).self).fetchOne(db) else {
        throw SyncRefusal(.internalServerError, "strata_sync.server has no row")
      }
      guard found <= version else {
        throw SyncRefusal(.internalServerError, "the database's sync tables are of version \(found), newer than this server's (\(version)): update the server")
      }
      try await sql("COMMIT").execute(db)
      return id
    } catch {
      try? await sql("ROLLBACK").execute(db)
      throw error
    }
  }
}

/// SQL built from parts the server knows (table and column names, quoted) and values bound
/// as parameters.
struct Fragment: QueryExpression {
  typealias QueryValue = ()
  var queryFragment: QueryFragment

  init(_ fragment: QueryFragment) {
    queryFragment = fragment
  }

  /// A statement of `fragment`.
  static func statement(_ fragment: QueryFragment) -> SQLQuery<()> {
    sql("\(Fragment(fragment))")
  }
}
#endif
