#if PostgreSQL
import Logging
import PostgresNIO
import StrataCore

/// A connection to PostgreSQL, lent by a ``PostgreSQLDatabase`` for the time of a closure
/// (``PostgreSQLDatabase/read(isolation:_:)``, ``PostgreSQLDatabase/write(retries:isolation:_:)``,
/// ``PostgreSQLDatabase/withConnection(isolation:_:)``); statements run on it:
///
/// ```swift
/// try await database.write { db in
///   try await Player.find(id).update { $0.score += 1 }.execute(db)
/// }
/// ```
///
/// Do not keep it past the closure: the connection goes back to the pool when the closure
/// returns.
public struct PostgreSQLConnection: Sendable {
  /// The postgres-nio connection, for what Strata does not cover (`LISTEN`, `COPY`).
  public let connection: PostgresConnection
  /// The logger postgres-nio logs the statements to.
  public let logger: Logger
  /// The transaction the connection is in, when a ``PostgreSQLDatabase`` began one.
  @usableFromInline let transaction: TransactionState?

  /// The names the builder's statements run under as prepared statements, or nil to run them
  /// unnamed (see ``PostgreSQLDatabase/Configuration/namedStatements``).
  let names: NamedStatements?

  /// A connection you leased from postgres-nio yourself, for running Strata's statements on it.
  ///
  /// - Parameters:
  ///   - connection: A connection postgres-nio lent you, used for as long as you use this value.
  ///   - logger: The logger postgres-nio logs the statements to.
  ///   - namedStatements: Whether the query builder's statements are prepared once per
  ///     connection under a name (see ``PostgreSQLDatabase/Configuration/namedStatements``);
  ///     turn it off for a connection through a pooler that does not keep a server
  ///     connection's prepared statements (PgBouncer in transaction mode before 1.21).
  public init(_ connection: PostgresConnection, logger: Logger = Logger(label: "strata.postgresql"), namedStatements: Bool = true) {
    self.init(connection, logger: logger, transaction: nil, names: namedStatements ? .shared : nil)
  }

  init(_ connection: PostgresConnection, logger: Logger, transaction: TransactionState?, names: NamedStatements?) {
    self.connection = connection
    self.logger = logger
    self.transaction = transaction
    self.names = names
  }

  /// Sends one statement, rendered for PostgreSQL, and returns its first `limit` rows (the rest
  /// are read and dropped): under a name when `named` (the builder's statements; see
  /// ``NamedStatements``), else unnamed. postgres-nio's errors, whether they come with the first
  /// response or among the rows, are read and noted in the transaction.
  ///
  /// A name the server refused is retired; a statement that ran alone (not in a transaction,
  /// which the error aborted) and failed to prepare is then sent once more, unnamed, so that a
  /// preparation postgres-nio kept from before a migration does not fail it.
  @usableFromInline
  nonisolated(nonsending) func rows(
    _ sql: String, _ bindings: [QueryBinding], named: Bool = false, keeping limit: Int
  ) async throws -> [PostgresRow] {
    try PostgreSQLStorage.check(bindings, sql: sql)
    // In a transaction an earlier error aborted, the server refuses every statement: one sent
    // under a name the connection has not prepared yet would leave that refusal with the name.
    let name = named && transaction?.firstFailure == nil ? names?.name(for: sql, bindings) : nil
    do {
      guard let name else {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: PostgresBindings(bindings)), logger: logger)
        return try await Self.receive(rows, keeping: limit)
      }
      return try await execute(PostgresBindings(bindings), as: name.slot, keeping: limit)
    } catch {
      let reported = PostgreSQLError.reading(error, sql: sql)
      guard let name, var refused = reported as? PostgreSQLError, NamedStatements.retires(refused) else {
        throw failure(reported)
      }
      names?.retire(name)
      guard transaction == nil, NamedStatements.mayRunUnnamed(refused) else {
        refused.isStaleStatement = NamedStatements.isStale(refused)
        throw failure(refused)
      }
      return try await rows(sql, bindings, named: false, keeping: limit)
    }
  }

  /// Runs the named statement `Slot` spells with `bindings`. Concurrent, not on the caller's
  /// actor: as a `nonisolated(nonsending)` function called with a type opened from an
  /// existential, the release build (Swift 6.3; not the debug build) returned to the global
  /// executor instead of the caller's actor, and a caller on the main actor went on off it
  /// (`strata-bench --only postgres` crashed in its main-actor fetch).
  @concurrent
  private func execute<Slot: StatementSlot>(
    _ bindings: PostgresBindings, as slot: Slot.Type, keeping limit: Int
  ) async throws -> [PostgresRow] {
    try await Self.receive(try await connection.execute(NamedStatement<Slot>(bindings: bindings), logger: logger), keeping: limit)
  }

  /// The first `limit` rows of a statement, received where postgres-nio hands them over, on the
  /// global executor; the rest are read and dropped. A loop on the caller's actor (the main
  /// actor, a server's actor) would hop there and back for every row, which made reading 100,000
  /// rows 20 times slower. (Decoding them there as well would be faster still, but would ask
  /// every type a statement decodes to be `SendableMetatype`.)
  @concurrent
  private static func receive<Rows: AsyncSequence & Sendable>(
    _ sequence: Rows, keeping limit: Int
  ) async throws -> [PostgresRow] where Rows.Element == PostgresRow {
    var rows: [PostgresRow] = []
    for try await row in sequence where rows.count < limit { rows.append(row) }
    return rows
  }

  /// `error` (read by ``PostgreSQLError/reading(_:sql:)``) noted in the transaction, which it
  /// aborts.
  @usableFromInline
  func failure(_ error: any Error) -> any Error {
    if let error = error as? PostgreSQLError, error.kind == .server { transaction?.record(error) }
    return error
  }

  /// Runs SQL text of one or more statements without parameters, one after the other: for
  /// migrations, whose files hold many statements.
  ///
  /// - Throws: `PostgreSQLScript.Failure`, with the line of the statement that failed.
  func run(script sql: String) async throws {
    for statement in PostgreSQLScript(sql).statements {
      do {
        try await execute(raw: statement.sql)
      } catch let error as PostgreSQLError {
        throw PostgreSQLScript.Failure(line: statement.line, error: error)
      }
    }
  }
}

/// Runs statements on a PostgreSQL connection, decoding rows as they arrive.
@usableFromInline
enum PostgreSQLExecutor {
  /// PostgreSQL's limit on a statement's parameters.
  @usableFromInline static let maxBindings = 65_535

  /// A row's decoding.
  @usableFromInline
  typealias RowDecoding<Element> = (inout PostgreSQLQueryDecoder) throws -> Element

  /// Runs every statement the statement renders to, collecting the decoded rows.
  @inlinable
  nonisolated(nonsending) static func fetchAll<Element>(
    _ statement: some QueryStatement, on db: PostgreSQLConnection, decodeRow: RowDecoding<Element>
  ) async throws -> [Element] {
    guard !statement.isEmpty else { return [] }
    try PostgreSQLStorage.check(statement)
    var rows: [Element] = []
    for (sql, bindings) in try statement.statements(for: .postgreSQL, maxBindings: maxBindings) {
      let received = try await db.rows(sql, bindings, named: statement.isPreparedForReuse, keeping: .max)
      rows.reserveCapacity(rows.count + received.count)
      for row in received { rows.append(try decode(row, sql: sql, decodeRow)) }
    }
    return rows
  }

  /// Returns the first decoded row. The server runs a statement to its end whether its rows are
  /// read or not (an `UPDATE … RETURNING` updates every row it matches); the rest are dropped.
  @inlinable
  nonisolated(nonsending) static func fetchOne<Element>(
    _ statement: some QueryStatement, on db: PostgreSQLConnection, decodeRow: RowDecoding<Element>
  ) async throws -> Element? {
    guard !statement.isEmpty else { return nil }
    try PostgreSQLStorage.check(statement)
    let statements = try statement.statements(for: .postgreSQL, maxBindings: maxBindings)
    guard statements.count == 1, let (sql, bindings) = statements.first else {
      return try await fetchAll(statement, on: db, decodeRow: decodeRow).first
    }
    let received = try await db.rows(sql, bindings, named: statement.isPreparedForReuse, keeping: 1)
    return try received.first.map { try decode($0, sql: sql, decodeRow) }
  }

  /// Runs every statement to completion, ignoring any rows.
  @inlinable
  nonisolated(nonsending) static func execute(_ statement: some QueryStatement, on db: PostgreSQLConnection) async throws {
    guard !statement.isEmpty else { return }
    try PostgreSQLStorage.check(statement)
    for (sql, bindings) in try statement.statements(for: .postgreSQL, maxBindings: maxBindings) {
      _ = try await db.rows(sql, bindings, named: statement.isPreparedForReuse, keeping: 0)
    }
  }

  /// One row, decoded, with a check that the statement returned no more columns than decoded.
  @inlinable
  static func decode<Element>(_ row: PostgresRow, sql: String, _ decodeRow: RowDecoding<Element>) throws -> Element {
    var decoder = PostgreSQLQueryDecoder(row: row, sql: sql)
    let element = try decodeRow(&decoder)
    try decoder.finish()
    return element
  }
}
#endif
