import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// The databases the runtime tests whose meaning is the same on both run on: SQLite always,
/// PostgreSQL when a server is at hand (``PostgreSQLTestServer``).
enum TestDialect: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite, postgreSQL

  var testDescription: String { rawValue }

  /// The dialects to run on here.
  static let all: [TestDialect] = PostgreSQLTestServer.isAvailable ? [.sqlite, .postgreSQL] : [.sqlite]

  /// A fresh database of this target's models, filled with `rows`, for the time of `body`.
  func database<Result>(
    seeding rows: Seeds? = nil, _ body: (TestDatabase) async throws -> Result
  ) async throws -> Result {
    switch self {
    case .sqlite:
      let database = TestDatabase(engine: .sqlite(try testDatabase()))
      if let rows { try await rows.execute(database) }
      return try await body(database)
    case .postgreSQL:
      let name = try await PostgreSQLTestServer.shared.newDatabase()
      do {
        var configuration = try PostgresClient.Configuration(url: try PostgreSQLTestServer.shared.url(of: name))
        configuration.options.maximumConnections = 4
        let result = try await PostgreSQLDatabase.withDatabase(configuration, configuration: PostgreSQLTestServer.patient) { postgreSQL in
          let database = TestDatabase(engine: .postgreSQL(postgreSQL))
          if let rows { try await rows.execute(database) }
          return try await body(database)
        }
        await PostgreSQLTestServer.shared.drop(name)
        return result
      } catch {
        await PostgreSQLTestServer.shared.drop(name)
        throw error
      }
    }
  }
}

/// A database of this target's models on either dialect: statements run on it with the same
/// spelling, `try await statement.fetchAll(db)`, each in a transaction of its own that writes
/// (so `RETURNING` and upserts run as they do in an app's `write`).
struct TestDatabase: Sendable {
  enum Engine: Sendable {
    case sqlite(any DatabaseWriter)
    case postgreSQL(PostgreSQLDatabase)
  }

  let engine: Engine

  /// The PostgreSQL database, for the tests of PostgreSQL's own API.
  var postgreSQL: PostgreSQLDatabase {
    guard case .postgreSQL(let database) = engine else { preconditionFailure("a PostgreSQL test database was expected") }
    return database
  }

  var dialect: TestDialect {
    switch engine {
    case .sqlite: .sqlite
    case .postgreSQL: .postgreSQL
    }
  }

  /// GRDB's synchronous write, which a call in an async function would not pick.
  private static func write<Result>(_ writer: any DatabaseWriter, _ body: (Database) throws -> Result) throws -> Result {
    try writer.write(body)
  }

  /// Runs `sqlite` or `postgreSQL` in a write transaction of the engine's.
  func run<Result>(
    sqlite: (Database) throws -> Result, postgreSQL: (PostgreSQLConnection) async throws -> Result
  ) async throws -> Result {
    switch engine {
    case .sqlite(let writer): try Self.write(writer, sqlite)
    case .postgreSQL(let database): try await database.write(retries: 0) { try await postgreSQL($0) }
    }
  }
}

// The fetches of both executors, with the spellings the tests use.

extension QueryStatement {
  func execute(_ db: TestDatabase) async throws {
    try await db.run(sqlite: { try execute($0) }, postgreSQL: { try await execute($0) })
  }

  func fetchAll(_ db: TestDatabase) async throws -> [QueryValue.QueryOutput] where QueryValue: QueryRepresentable {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }

  func fetchOne(_ db: TestDatabase) async throws -> QueryValue.QueryOutput? where QueryValue: QueryRepresentable {
    try await db.run(sqlite: { try fetchOne($0) }, postgreSQL: { try await fetchOne($0) })
  }

  func fetchAll<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> [(A.QueryOutput, B.QueryOutput)] where QueryValue == (A, B) {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }

  func fetchAll<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> [(A.QueryOutput, B.QueryOutput, C.QueryOutput)] where QueryValue == (A, B, C) {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }

  func fetchAll<each Value: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> [(repeat (each Value).QueryOutput)] where QueryValue == (repeat each Value) {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }

  func fetchOne<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> (A.QueryOutput, B.QueryOutput)? where QueryValue == (A, B) {
    try await db.run(sqlite: { try fetchOne($0) }, postgreSQL: { try await fetchOne($0) })
  }

  func fetchOne<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> (A.QueryOutput, B.QueryOutput, C.QueryOutput)? where QueryValue == (A, B, C) {
    try await db.run(sqlite: { try fetchOne($0) }, postgreSQL: { try await fetchOne($0) })
  }

  func fetchOne<each Value: QueryRepresentable>(
    _ db: TestDatabase
  ) async throws -> (repeat (each Value).QueryOutput)? where QueryValue == (repeat each Value) {
    try await db.run(sqlite: { try fetchOne($0) }, postgreSQL: { try await fetchOne($0) })
  }
}

extension Select where Columns == (), Joins == () {
  func fetchAll(_ db: TestDatabase) async throws -> [From.QueryOutput] {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }

  func fetchOne(_ db: TestDatabase) async throws -> From.QueryOutput? {
    try await db.run(sqlite: { try fetchOne($0) }, postgreSQL: { try await fetchOne($0) })
  }
}

extension Select where Columns == (), Joins: Table {
  func fetchAll(_ db: TestDatabase) async throws -> [(From.QueryOutput, Joins.QueryOutput)] {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }
}

extension Select where Columns == () {
  func fetchAll<J1: Table, each J: Table>(
    _ db: TestDatabase
  ) async throws -> [(From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)] where Joins == (J1, repeat each J) {
    try await db.run(sqlite: { try fetchAll($0) }, postgreSQL: { try await fetchAll($0) })
  }
}

extension Select {
  func fetchCount(_ db: TestDatabase) async throws -> Int {
    try await db.run(sqlite: { try fetchCount($0) }, postgreSQL: { try await fetchCount($0) })
  }
}

extension Table {
  static func fetchAll(_ db: TestDatabase) async throws -> [QueryOutput] {
    try await all.fetchAll(db)
  }

  static func fetchCount(_ db: TestDatabase) async throws -> Int {
    try await all.fetchCount(db)
  }
}
