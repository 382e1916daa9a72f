#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StrataCore

/// A PostgreSQL database, through a pool of connections (postgres-nio's `PostgresClient`): the
/// same statements as on SQLite, run with `await`.
///
/// ```swift
/// let configuration = try PostgresClient.Configuration(url: "postgres://app@localhost/app")
/// try await PostgreSQLDatabase.withDatabase(configuration) { database in
///   try await database.migrate(StrataMigrations.all)
///   try await database.write { db in
///     try await Player.find(id).update { $0.score += 1 }.execute(db)
///   }
///   let players = try await database.read { db in
///     try await Player.where { $0.score > 10 }.order { $0.score.desc() }.fetchAll(db)
///   }
/// }
/// ```
///
/// - ``write(retries:isolation:_:)`` runs its closure in a `SERIALIZABLE` transaction, as SQLite runs
///   writes one at a time: no update is lost between tasks or machines. When PostgreSQL cannot
///   serialize it with another (SQLSTATE `40001`) or picks it as a deadlock's victim (`40P01`),
///   the transaction is rolled back and the closure runs again, up to `retries` times; so the
///   closure must do nothing outside the database that cannot be done twice.
/// - ``read(isolation:_:)`` runs its closure in a `REPEATABLE READ READ ONLY` transaction: every
///   statement sees the same snapshot, as a SQLite read does.
/// - ``withConnection(isolation:_:)`` runs statements without a transaction (each is its own), one round
///   trip each.
///
/// A closure waits at most ``Configuration/connectionTimeout`` for a connection, then fails
/// with a ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/noConnection`` that says whether
/// the pool was exhausted or the server did not answer; it never waits forever.
public final class PostgreSQLDatabase: Sendable {
  /// The pool. Its `run()` must be running for as long as the database is used (as
  /// ``withDatabase(_:configuration:isolation:_:)`` does), or in your service group.
  public let client: PostgresClient
  public let configuration: Configuration

  private let lock = NSLock()
  nonisolated(unsafe) private var leased = 0

  /// How a ``PostgreSQLDatabase`` waits for connections and retries transactions.
  public struct Configuration: Sendable {
    /// How long a closure waits for a connection from the pool before failing.
    public var connectionTimeout: Duration = .seconds(10)
    /// The pool's maximum number of connections (`PostgresClient.Configuration.options
    /// .maximumConnections`), which tells an exhausted pool from a server that does not answer;
    /// set for you by ``PostgreSQLDatabase/withDatabase(_:configuration:isolation:_:)``.
    public var maximumConnections: Int?
    /// How many times ``PostgreSQLDatabase/write(retries:isolation:_:)`` runs a closure again after a
    /// serialization failure or a deadlock, each after a random wait up to 1 ms doubled per
    /// attempt, at most 100 ms: about 9.5 seconds of waiting in all with the default 100.
    public var transactionRetries = 100
    /// How long ``PostgreSQLDatabase/migrate(_:checksums:renamed:)`` waits for another instance
    /// that is migrating the database (or a dead session that still holds the migration lock)
    /// before it fails, saying so.
    public var migrationLockTimeout: Duration = .seconds(120)
    /// The logger postgres-nio logs statements to.
    public var logger = Logger(label: "strata.postgresql")
    /// Whether the query builder's statements are prepared once per connection under a name,
    /// and then only bound and run, instead of parsed and planned by the server on every run.
    /// Statements written by hand (`sql(…)`) and migrations always run unnamed.
    ///
    /// A database names at most 256 statement shapes (so each of its connections keeps at most
    /// that many prepared, a few megabytes of the server's memory); later ones run unnamed, and
    /// so does a many-row insert, whose text changes with its number of rows. After a migration
    /// changes the type of a column a prepared statement returns, the statement fails once with
    /// an error that ``PostgreSQLError/isStaleStatement`` (its transaction runs again, in
    /// ``write(retries:isolation:_:)`` and ``read(isolation:_:)`` alike) and is prepared again
    /// under a new name. Turn this off for a pooler that does not keep a server connection's
    /// prepared statements for its client (PgBouncer in transaction mode before 1.21).
    public var namedStatements = true

    public init() {}
  }

  /// The names its connections prepare the builder's statements under; nil when
  /// ``Configuration/namedStatements`` is off.
  let names: NamedStatements?

  /// A database on a client whose `run()` you run yourself.
  public init(client: PostgresClient, configuration: Configuration = Configuration()) {
    self.client = client
    self.configuration = configuration
    names = configuration.namedStatements ? NamedStatements() : nil
  }

  /// Opens a pool of connections to the server `client` describes, runs `body` with the
  /// database, then closes the pool.
  @discardableResult
  public static func withDatabase<Result>(
    _ client: PostgresClient.Configuration, configuration: Configuration = Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLDatabase) async throws -> Result
  ) async throws -> Result {
    var configuration = configuration
    configuration.maximumConnections = configuration.maximumConnections ?? client.options.maximumConnections
    let pool = PostgresClient(configuration: client)
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
      group.addTask { await pool.run() }
      defer { group.cancelAll() }
      return try await body(PostgreSQLDatabase(client: pool, configuration: configuration))
    }
  }

  // MARK: Connections and transactions

  /// Runs `body` on a connection of the pool, without a transaction: each statement commits
  /// on its own.
  @discardableResult
  public func withConnection<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLConnection) async throws -> Result
  ) async throws -> Result {
    try await lease(isolation: isolation) { connection in
      try await body(PostgreSQLConnection(connection, logger: configuration.logger, transaction: nil, names: names))
    }
  }

  /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction: its statements see one snapshot
  /// of the database, and cannot write. `body` runs once more only when a statement prepared
  /// before a migration no longer fits the tables (``PostgreSQLError/isStaleStatement``).
  public func read<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLConnection) async throws -> Result
  ) async throws -> Result {
    try await transaction(.repeatableRead, readOnly: true, retries: 0, isolation: isolation, body)
  }

  /// Runs `body` in a `SERIALIZABLE` transaction, and commits it; runs it again, up to
  /// `retries` times (``Configuration/transactionRetries`` by default), when PostgreSQL reports
  /// a serialization failure, a deadlock, or a statement prepared before a migration that no
  /// longer fits the tables. When `body` throws, the transaction is rolled back.
  @discardableResult
  public func write<Result>(
    retries: Int? = nil, isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLConnection) async throws -> Result
  ) async throws -> Result {
    try await transaction(.serializable, retries: retries ?? configuration.transactionRetries, isolation: isolation, body)
  }

  /// The isolation level of a transaction.
  public enum IsolationLevel: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
  }

  /// Runs `body` in a transaction of the given isolation level, and commits it. When `body`
  /// throws, the transaction is rolled back; when the error is a serialization failure or a
  /// deadlock, `body` runs again, up to `retries` times, and once even with no retries when a
  /// statement prepared before a migration no longer fits (``PostgreSQLError/isStaleStatement``).
  ///
  /// When a statement fails, PostgreSQL aborts the whole transaction: a closure that catches
  /// the error and goes on cannot commit, and this throws a ``PostgreSQLError`` that says so
  /// instead of reporting a commit that did not happen.
  @discardableResult
  public func transaction<Result>(
    _ level: IsolationLevel, readOnly: Bool = false, retries: Int = 0,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLConnection) async throws -> Result
  ) async throws -> Result {
    try await lease(isolation: isolation) { connection in
      var attempt = 0
      while true {
        let db = PostgreSQLConnection(
          connection, logger: configuration.logger, transaction: TransactionState(), names: names)
        do {
          return try await db.inTransaction(begin: "BEGIN ISOLATION LEVEL \(level.rawValue)\(readOnly ? " READ ONLY" : "")", body)
        } catch let error as PostgreSQLError
          where error.isTransient && (attempt < retries || error.isStaleStatement && attempt == 0)
        {
          attempt += 1
          try await Task.sleep(for: Self.retryDelay(after: attempt))
        }
      }
    }
  }

  /// The wait before running a transaction again after its `attempt`th serialization failure or
  /// deadlock: a random time ("full jitter") up to 1 ms doubled per attempt, at most 100 ms, so
  /// that transactions that collided spread apart instead of colliding again, and many that
  /// contend for one row take turns. With the default 100 retries, a closure waits at most about
  /// 9.5 seconds in all before its last run.
  static func retryDelay(after attempt: Int) -> Duration {
    .microseconds(Int.random(in: 0...min(100_000, 1_000 << min(attempt - 1, 7))))
  }

  // MARK: Leasing

  /// Leases a connection for `body`, waiting at most ``Configuration/connectionTimeout``.
  ///
  /// postgres-nio lends a connection for the time of a closure and waits for one as long as it
  /// takes; the lease is taken in a child task, so that this task can stop waiting, and the
  /// connection is used here and handed back when `body` ends.
  private func lease<Result>(
    isolation: isolated (any Actor)?,
    _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let lent = Handoff<PostgresConnection>()
    let returned = Handoff<Void>()
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
      group.addTask { [client] in
        do {
          try await client.withConnection { connection in
            guard lent.fulfill(.success(connection)) else { return }
            // Not cancellable: the connection is in use until the borrower is done with it.
            _ = try? await returned.value(cancellable: false)
          }
        } catch {
          lent.fulfill(.failure(PostgreSQLError.reading(error, sql: nil)))
        }
      }
      let timeout = configuration.connectionTimeout
      group.addTask { [self] in
        try await Task.sleep(for: timeout)
        lent.fulfill(.failure(noConnection(after: timeout)))
      }
      let connection = try await lent.value(cancellable: true)
      lock.withLock { self.leased += 1 }
      // Stops the timer; the lease's task waits for `returned` whatever happens.
      group.cancelAll()
      defer {
        lock.withLock { self.leased -= 1 }
        returned.fulfill(.success(()))
      }
      return try await body(connection)
    }
  }

  private func noConnection(after timeout: Duration) -> PostgreSQLError {
    let inUse = lock.withLock { leased }
    let reason: String
    if let maximum = configuration.maximumConnections, inUse >= maximum {
      reason = "all \(maximum) connections of the pool are in use by this database's tasks (the pool is exhausted: raise maximumConnections, or hold connections for less time)"
    } else {
      reason = "\(inUse) connection\(inUse == 1 ? " is" : "s are") in use by this database's tasks, and the pool did not open another: the server is not answering or refuses connections (is it running, and does it accept this user?), or the pool is exhausted by other users of the same PostgresClient"
    }
    return PostgreSQLError(.noConnection, "no connection within \(timeout): \(reason)")
  }
}

/// What a transaction learned of its statements: PostgreSQL aborts a transaction in which one
/// fails, and `COMMIT` then rolls it back without an error.
@usableFromInline
final class TransactionState: @unchecked Sendable {
  private let lock = NSLock()
  private var failure: PostgreSQLError?

  @usableFromInline
  func record(_ error: PostgreSQLError) {
    lock.withLock { if failure == nil { failure = error } }
  }

  var firstFailure: PostgreSQLError? { lock.withLock { failure } }
}

extension PostgreSQLConnection {
  /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws.
  func inTransaction<Result>(begin: String, _ body: (PostgreSQLConnection) async throws -> Result) async throws -> Result {
    try await execute(raw: begin)
    let result: Result
    do {
      result = try await body(self)
    } catch {
      // The error that ended the closure is the one to report; a rollback that fails (the
      // connection is gone) changes nothing on the server, which rolls back on its own.
      try? await execute(raw: "ROLLBACK")
      throw error
    }
    if let failure = transaction?.firstFailure {
      try? await execute(raw: "ROLLBACK")
      throw PostgreSQLError(
        .server,
        "the transaction was rolled back, not committed: a statement in it failed, which aborts a PostgreSQL transaction (the closure went on after catching: \(failure.message))",
        sql: failure.sql)
    }
    try await execute(raw: "COMMIT")
    return result
  }

  /// Runs SQL text written in the code, without values.
  func execute(raw sql: String) async throws {
    _ = try await rows(sql, [], keeping: 0)
  }
}
#endif
