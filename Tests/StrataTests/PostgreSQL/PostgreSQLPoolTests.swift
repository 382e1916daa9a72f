import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// The pool under trouble: a task that waits for a connection gives up after the configured time
/// with an error that says why; a server that goes away mid-query is an error, never a hang or a
/// crash, and the pool recovers when it comes back.
///
/// The time limit only stops a hang (each test bounds its own waits): a test starts servers of
/// its own, which on CI's two cores, beside the consumer package's builds, once took 142 s for
/// one test and over 180 s for the other.
@Suite(
  .enabled(if: OwnPostgreSQLServer.isAvailable, "needs PostgreSQL's binaries (initdb, pg_ctl) for a server of the test's own"),
  .timeLimit(.minutes(10)))
struct PostgreSQLPoolTests {
  func configuration(_ server: OwnPostgreSQLServer, connections: Int, timeout: Duration)
    throws -> (PostgresClient.Configuration, PostgreSQLDatabase.Configuration)
  {
    var client = try PostgresClient.Configuration(url: server.url)
    client.options.maximumConnections = connections
    client.options.connectTimeout = .seconds(2)
    var options = PostgreSQLDatabase.Configuration()
    options.connectionTimeout = timeout
    return (client, options)
  }

  @Test func anExhaustedPoolFailsAfterTheTimeoutSayingSo() async throws {
    let server = try await OwnPostgreSQLServer()
    defer { server.remove() }
    let (client, options) = try configuration(server, connections: 1, timeout: .seconds(1))
    try await PostgreSQLDatabase.withDatabase(client, configuration: options) { database in
      // The pool's one connection is made first: on a busy machine, connecting to a new server
      // can take longer than the one second the test's tasks wait for a connection.
      try await connected(database)
      let holding = Gate()
      let release = Gate()
      async let holder: Void = database.withConnection { _ in
        holding.signal()
        await release.wait()
      }
      guard await holding.wait() else {
        release.signal()
        try await holder
        return
      }
      let started = ContinuousClock.now
      await #expect {
        try await database.read { db in try await sql("SELECT 1", as: Int.self).fetchOne(db) }
      } throws: { error in
        guard let error = error as? PostgreSQLError, error.kind == .noConnection else { return false }
        return error.message == "no connection within 1.0 seconds: all 1 connections of the pool are in use by this database's tasks (the pool is exhausted: raise maximumConnections, or hold connections for less time)"
      }
      // It fails at its timeout instead of waiting for the holder; a loaded machine wakes it
      // late (6 s for its 1 s in one CI run), so the bound only tells a failure from a hang.
      #expect(ContinuousClock.now - started < .seconds(60))
      release.signal()
      try await holder
      // The connection is free again.
      #expect(try await database.read { db in try await sql("SELECT 2", as: Int.self).fetchOne(db) } == 2)
    }
  }

  /// Waits until the database answers, for up to 60 seconds.
  func connected(_ database: PostgreSQLDatabase) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while true {
      do {
        _ = try await database.read { db in try await sql("SELECT 1", as: Int.self).fetchOne(db) }
        return
      } catch where ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(100))
      }
    }
  }

  @Test func aServerThatGoesAwayIsAnErrorAndThePoolRecoversWhenItComesBack() async throws {
    let server = try await OwnPostgreSQLServer()
    defer { server.remove() }
    let (client, options) = try configuration(server, connections: 2, timeout: .seconds(2))
    try await PostgreSQLDatabase.withDatabase(client, configuration: options) { database in
      try await connected(database)

      // Mid-query: the statement fails when the connection breaks.
      let running = Task {
        try await database.withConnection { db in try await sql("SELECT 1 FROM pg_sleep(60)", as: Int.self).fetchOne(db) }
      }
      try await Task.sleep(for: .milliseconds(500))
      let stopped = ContinuousClock.now
      try await server.stop()
      do {
        _ = try await running.value
        Issue.record("a query on a stopped server returned")
      } catch let error as PostgreSQLError {
        #expect(error.kind == .connectionLost)
        #expect(error.description.contains("in: SELECT 1 FROM pg_sleep(60)"))
      }
      #expect(ContinuousClock.now - stopped < .seconds(15))

      // While it is down: an error after the wait, not a hang.
      await #expect(throws: PostgreSQLError.self) {
        try await database.read { db in try await sql("SELECT 1", as: Int.self).fetchOne(db) }
      }

      // Back: the same pool connects again.
      try await server.start()
      try await connected(database)
      #expect(try await database.read { db in try await sql("SELECT 3", as: Int.self).fetchOne(db) } == 3)
    }
  }
}
