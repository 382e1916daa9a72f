#if SyncServer
import Foundation
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// A sync server: the app's synced tables in PostgreSQL, merged from every user's devices, and
/// who may read and write which rows.
///
/// The tables are the app's own, made by its PostgreSQL migrations from the same models
/// (`// @Synced` above them), so a team queries them with SQL and Strata like any table; the
/// server writes them after merging (write through a device's replica, not to the tables, for a
/// change to reach the devices). Sync's own tables are in the `strata_sync` schema.
///
/// ```swift
/// let server = try await SyncServer(database: database, tables: StrataSyncedTables.all) { token in
///   try await users.verify(token)   // the user's id, or nil
/// }
/// let router = Router(context: BasicWebSocketRequestContext.self)
/// server.addRoutes(to: router)
/// let app = Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router))
/// ```
///
/// Every row belongs to a record: a row of a table with no synced parent is one, and a row
/// joins its parent's. The user who creates a record owns it and may share it
/// (`SyncShareRequest`); every pushed change and every pulled row is checked against this.
public final class SyncServer: Sendable {
  /// Limits on what clients send and get.
  public struct Configuration: Sendable {
    /// The largest push body, in bytes (8 MiB).
    public var maximumPushBytes = 8 << 20
    /// The most rows a push may hold (10,000).
    public var maximumPushRows = 10_000
    /// The most rows a pull returns (1,000); a device asks again from the cursor it got.
    public var maximumPullRows = 1_000
    /// How far ahead of the server's clock a write may be stamped (one day): a device whose
    /// clock is further ahead is refused, since every replica's clock would jump to its.
    public var maximumClockAhead: Duration = .seconds(86_400)
    /// The longest a pull waits for a change when asked to (`wait=`).
    public var maximumPullWait: Duration = .seconds(60)
    /// The schema of the server's database, `SyncSchema(migrations: StrataMigrations.all)`
    /// with the migrations it ran: the server then refuses a client outside what it can sync
    /// with — an app older than its compatibility window (`426`, "update the app") or one
    /// newer that does not keep the server's schema working (`409`). Nil accepts every client
    /// (and every client that sends no schema is accepted).
    public var schema: SyncSchema?

    public init() {}
  }

  /// The function that names the user of a request's bearer token, or returns nil to refuse it.
  public typealias Authenticator = @Sendable (_ token: String) async throws -> String?

  /// The database.
  public let database: PostgreSQLDatabase
  public let configuration: Configuration
  /// The server's replica id, which the changesets it sends carry.
  public let id: String
  let tables: [String: ServerTable]
  let authenticate: Authenticator
  let commits = CommitSignal()

  /// Prepares sync's tables in `database` (made once, under a lock) and reads the synced tables'
  /// columns.
  ///
  /// - Throws: when a synced table is missing: run the server's migrations first.
  public init(
    database: PostgreSQLDatabase, tables: [SyncedTable], configuration: Configuration = Configuration(),
    authenticate: @escaping Authenticator
  ) async throws {
    self.database = database
    self.configuration = configuration
    self.authenticate = authenticate
    (id, self.tables) = try await database.withConnection { db in
      (try await ServerMetadata.prepare(db), try await ServerTable.read(tables, in: db))
    }
  }

  // MARK: Operations (what the routes call)

  /// Merges a changeset a device of `user` pushed; all of it, or nothing when any row is
  /// refused.
  public func push(_ changeset: Changeset, user: String) async throws -> SyncPushReceipt {
    guard changeset.rows.count <= configuration.maximumPushRows else {
      throw SyncRefusal(
        .contentTooLarge,
        "the changeset holds \(changeset.rows.count) rows; the server takes at most \(configuration.maximumPushRows) a push; push it in parts")
    }
    do {
      try changeset.check()
    } catch {
      throw SyncRefusal(.badRequest, "\(error)")
    }
    try ServerPush.check(changeset, tables: tables, configuration: configuration)
    let receipt = try await inTransaction { db in
      let push = try await ServerPush(tables: tables, configuration: configuration, db: db, user: user)
      let receipt = SyncPushReceipt(changed: try await push.merge(changeset), number: push.seq)
      if receipt.changed > 0 { try await Self.notifyCommit(db) }
      return receipt
    }
    if receipt.changed > 0 { commits.signal() }
    return receipt
  }

  /// The changes `user` may read after `cursor`, at most ``Configuration/maximumPullRows``; the
  /// records the user may no longer read; and the rows of the changeset the server keeps out
  /// of its tables (a unique value another row holds, a parent that is not there), which the
  /// device keeps out too.
  public func pull(user: String, after cursor: Int64) async throws -> (changeset: Changeset, revoked: [RowID], waiting: [RowID]) {
    let result = try await database.read { db in
      try await ServerPull(db: db, user: user).changes(after: cursor, limit: configuration.maximumPullRows)
    }
    return (
      Changeset(replica: id, schemaVersion: "", cursor: SyncCursor(result.through), rows: result.rows.map(forDevices)), result.revoked,
      result.waiting
    )
  }

  /// ``pull(user:after:)``, waiting up to `wait` for a commit when there is nothing new.
  public func pull(user: String, after cursor: Int64, waiting wait: Duration) async throws -> (changeset: Changeset, revoked: [RowID], waiting: [RowID]) {
    let commits = commits.subscribe()
    let first = try await pull(user: user, after: cursor)
    guard first.changeset.rows.isEmpty, first.revoked.isEmpty, wait > .zero else { return first }
    let deadline = ContinuousClock.now + min(wait, configuration.maximumPullWait)
    _ = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in commits {
          if let next = try? await self.pull(user: user, after: cursor), !next.changeset.rows.isEmpty || !next.revoked.isEmpty {
            return true
          }
        }
        return false
      }
      group.addTask {
        try? await Task.sleep(until: deadline)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    return try await pull(user: user, after: cursor)
  }

  /// Every row of the record `row` belongs to, whole, when `user` may read it; none otherwise
  /// (also for a row the server does not have); and those of its rows the server keeps out of
  /// its tables.
  public func record(of row: RowID, user: String) async throws -> (changeset: Changeset, waiting: [RowID]) {
    let rows = try await database.read { db in
      guard let root = try await StoredRow.load(row, locking: false, in: db)?.root, try await Access(db: db, user: user).level(root) >= .read
      else { return [([UInt8], String, String, Bool)]() }
      return try await sql(
        """
        SELECT state, table_name, row_key, waiting IS NOT NULL FROM strata_sync.rows
        WHERE root_table = \(root.table) AND root_key = \(root.key) ORDER BY seq, table_name, row_key
        """,
        as: ([UInt8], String, String, Bool).self
      ).fetchAll(db)
    }
    return (
      Changeset(replica: id, schemaVersion: "", cursor: .start, rows: try rows.map { forDevices(try StoredRow.decode($0.0)) }),
      rows.filter(\.3).map { RowID(table: $0.1, key: $0.2) }
    )
  }

  /// A stored row as devices get it: a renamed column under its current name, and while the
  /// server's table keeps the former column, under that name too, for older app versions.
  private func forDevices(_ row: RowChange) -> RowChange {
    guard let table = tables[row.table] else { return row }
    return row.underCurrentNames(table.renames).alsoUnderFormerNames(table.keptRenames)
  }

  /// Shares a record of `user`'s.
  public func share(_ request: SyncShareRequest, user: String) async throws {
    try await inTransaction { db in try await Sharing(db: db, user: user, seq: try await Self.nextNumber(db)).share(request) }
  }

  /// Accepts a record shared with `user`: their devices get its rows from now on.
  public func accept(_ request: SyncShareRequest, user: String) async throws {
    try await inTransaction { db in
      try await Sharing(db: db, user: user, seq: try await Self.nextNumber(db)).accept(request)
      try await Self.notifyCommit(db)
    }
    commits.signal()
  }

  /// Revokes a share (the owner), or leaves one (the user it was shared with).
  public func endShare(_ request: SyncShareRequest, user: String) async throws {
    try await inTransaction { db in
      try await Sharing(db: db, user: user, seq: try await Self.nextNumber(db)).end(request)
      try await Self.notifyCommit(db)
    }
    commits.signal()
  }

  /// The shares of `user`'s records, and those offered to them.
  public func shares(user: String) async throws -> SyncShareList {
    try await database.read { db in try await Sharing(db: db, user: user, seq: 0).list() }
  }

  /// The channel commits are announced on, so that every instance of the server on the same
  /// database wakes its long pulls and live channels.
  static let commitChannel = "strata_sync"

  /// Announces the transaction's commit (PostgreSQL delivers it when the transaction commits).
  private static func notifyCommit(_ db: PostgreSQLConnection) async throws {
    try await sql("NOTIFY \(raw: commitChannel)").execute(db)
  }

  /// Listens for commits made through every instance of the server on this database (its own
  /// included) until the task is cancelled, waking long pulls and live channels: ``serve(host:port:logger:onServerRunning:)``
  /// runs it; an app that adds the routes to its own router runs it beside its application.
  /// Without it, an instance hears only its own commits.
  ///
  /// When the connection it listens on is lost (PostgreSQL restarted, a failover), it listens
  /// again on a new one, waiting longer after each failure (up to 5 seconds), and wakes every
  /// waiting pull when it is back: a commit made meanwhile was not announced to it. Serving
  /// goes on all the while.
  ///
  /// Cancelling it also ends the long pulls and live channels waiting at this instance, so
  /// that the application's graceful shutdown does not wait for them.
  public func listenForCommits() async throws {
    try await withTaskCancellationHandler {
      var backoff = Duration.milliseconds(100)
      while !Task.isCancelled {
        do {
          try await database.withConnection { db in
            try await db.connection.listen(on: Self.commitChannel) { notifications in
              commits.signal()
              backoff = .milliseconds(100)
              for try await _ in notifications { commits.signal() }
            }
          }
        } catch where !Task.isCancelled {
          try await Task.sleep(for: backoff)
          backoff = min(backoff * 2, .seconds(5))
        }
      }
    } onCancel: {
      commits.close()
    }
  }

  private static func nextNumber(_ db: PostgreSQLConnection) async throws -> Int64 {
    try await sql("UPDATE strata_sync.clock SET seq = seq + 1 RETURNING seq", as: Int64.self).fetchOne(db) ?? 0
  }

  /// Runs `body` in a READ COMMITTED transaction of its own, begun and ended here so that a
  /// statement refused in a savepoint (a row that waits) does not abort it.
  private func inTransaction<Result: Sendable>(_ body: (PostgreSQLConnection) async throws -> Result) async throws -> Result {
    try await database.withConnection { db in
      try await sql("BEGIN ISOLATION LEVEL READ COMMITTED").execute(db)
      do {
        let result = try await body(db)
        try await sql("COMMIT").execute(db)
        return result
      } catch {
        try? await sql("ROLLBACK").execute(db)
        throw error
      }
    }
  }
}

/// Wakes whoever waits for the next commit: long pulls and live channels.
final class CommitSignal: @unchecked Sendable {
  // Guarded by `lock` (Synchronization's Mutex needs macOS 15).
  private let lock = NSLock()
  private var subscribers: [UUID: AsyncStream<Void>.Continuation] = [:]

  private var closed = false

  func subscribe() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    let open = lock.withLock {
      if !closed { subscribers[id] = continuation }
      return !closed
    }
    guard open else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  func signal() {
    for continuation in lock.withLock({ Array(subscribers.values) }) { continuation.yield() }
  }

  /// Ends every wait, and those that start later at once: the server is shutting down, and a
  /// long pull or a live channel must not hold the shutdown up.
  func close() {
    let waiting = lock.withLock {
      closed = true
      return Array(subscribers.values)
    }
    for continuation in waiting { continuation.finish() }
  }
}
#endif
