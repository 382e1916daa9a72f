import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// Transactions on a pool of connections: concurrent read-modify-write loses no update, and the
/// serialization failures it meets are retried; a statement that fails aborts its transaction,
/// which then never reports a commit; reads cannot write; broken constraints are read from the
/// server's error.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLTransactionTests {
  /// Tasks that each read a score and write it back plus one, at the same time, on several
  /// connections: in `write`'s SERIALIZABLE transactions every increment is kept, and the
  /// conflicts PostgreSQL reports are run again.
  @Test func concurrentReadModifyWriteLosesNoUpdate() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      let database = db.postgreSQL
      let tasks = 4, increments = 15
      let attempts = AttemptCount()
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<tasks {
          group.addTask {
            for _ in 0..<increments {
              try await database.write(retries: 100) { db in
                attempts.add()
                let score = try #require(try await Player.find(UUID(11)).select(\.score).fetchOne(db))
                try await Player.find(UUID(11)).update { $0.score = score + 1 }.execute(db)
              }
            }
          }
        }
        try await group.waitForAll()
      }
      let final = try await Player.find(UUID(11)).select(\.score).fetchOne(db)
      #expect(final == 20 + tasks * increments)
      #expect(attempts.value >= tasks * increments)
    }
  }

  /// Eight processes that each increment one row through `write`, with the default retries:
  /// every increment commits, none throws (the retries wait a random, growing time apart).
  @Test func manyProcessesIncrementingOneRowAllCommitWithTheDefaultRetries() async throws {
    let name = try await PostgreSQLTestServer.shared.newDatabase(empty: true)
    defer { Task { await PostgreSQLTestServer.shared.drop(name) } }
    let url = try PostgreSQLTestServer.shared.url(of: name)
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url), configuration: PostgreSQLTestServer.patient) { database in
      try await database.withConnection { db in
        try await sql(#"CREATE TABLE "counters" ("id" bigint PRIMARY KEY, "value" bigint NOT NULL)"#).execute(db)
        try await sql(#"INSERT INTO "counters" VALUES (1, 0)"#).execute(db)
      }
      let processes = 8, increments = 100
      let started = try (0..<processes).map { _ in try ExternalProcess.start(["postgres-increment", url, String(increments)]) }
      var runs = 0
      for process in started {
        let result = try await process.finish(timeout: 600)
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.last == "done")
        runs += lines.first.flatMap { Int($0) } ?? 0
      }
      let value = try await database.read { db in try await sql(#"SELECT "value" FROM "counters""#, as: Int.self).fetchOne(db) }
      #expect(value == processes * increments)
      // Conflicts happened, and were run again.
      #expect(runs >= processes * increments)
    }
  }

  /// `migrate` waits for the migration lock at most `migrationLockTimeout`, then says who may
  /// hold it.
  @Test func migrateStopsWaitingForALockANotherSessionHolds() async throws {
    let name = try await PostgreSQLTestServer.shared.newDatabase(empty: true)
    defer { Task { await PostgreSQLTestServer.shared.drop(name) } }
    let url = try PostgreSQLTestServer.shared.url(of: name)
    var options = PostgreSQLDatabase.Configuration()
    options.migrationLockTimeout = .milliseconds(500)
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url), configuration: options) { database in
      let holding = Gate()
      let release = Gate()
      async let holder: Void = database.withConnection { db in
        try await sql("SELECT pg_advisory_lock(91759600301153)").execute(db)
        holding.signal()
        await release.wait()
        try await sql("SELECT pg_advisory_unlock(91759600301153)").execute(db)
      }
      await holding.wait()
      let clock = ContinuousClock()
      let start = clock.now
      await #expect {
        try await database.migrate([Migration(name: "0001_t", sql: "CREATE TABLE t (id bigint)")])
      } throws: { error in
        "\(error)".hasPrefix("another session has held Strata's migration lock for 0.5 seconds")
      }
      #expect(clock.now - start < .seconds(30))
      release.signal()
      try await holder
      // Once it is released, the migration runs.
      #expect(try await database.migrate([Migration(name: "0001_t", sql: "CREATE TABLE t (id bigint)")]).applied == ["0001_t"])
    }
  }

  /// A transaction that loses to another is run again, and its second run sees the other's
  /// write.
  @Test func aTransactionThatLosesARaceRunsAgain() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      let database = db.postgreSQL
      let read = Gate()
      let committed = Gate()
      let attempts = AttemptCount()
      async let slow: Void = database.write { db in
        attempts.add()
        let score = try #require(try await Player.find(UUID(11)).select(\.score).fetchOne(db))
        read.signal()
        await committed.wait()
        try await Player.find(UUID(11)).update { $0.score = score + 1 }.execute(db)
      }
      await read.wait()
      try await database.write { db in
        let score = try #require(try await Player.find(UUID(11)).select(\.score).fetchOne(db))
        try await Player.find(UUID(11)).update { $0.score = score + 10 }.execute(db)
      }
      committed.signal()
      try await slow
      #expect(attempts.value == 2)
      #expect(try await Player.find(UUID(11)).select(\.score).fetchOne(db) == 31)
    }
  }

  /// Without retries, the conflict is an error that says what it is.
  @Test func aSerializationFailureWithoutRetriesIsAClearError() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      let database = db.postgreSQL
      let first = Gate()
      let second = Gate()
      async let one: Void = database.write(retries: 0) { db in
        _ = try await Player.find(UUID(11)).select(\.score).fetchOne(db)
        first.signal()
        await second.wait()
        try await Player.find(UUID(11)).update { $0.score += 1 }.execute(db)
      }
      await first.wait()
      try await database.write(retries: 0) { db in
        _ = try await Player.find(UUID(11)).select(\.score).fetchOne(db)
        try await Player.find(UUID(11)).update { $0.score += 10 }.execute(db)
      }
      second.signal()
      do {
        try await one
        Issue.record("the second writer committed over the first")
      } catch let error as PostgreSQLError {
        #expect(error.isTransient)
        #expect(error.sqlState == "40001")
        #expect(error.description.hasPrefix("PostgreSQL error 40001 (serialization_failure): could not serialize access"))
        #expect(error.description.contains(#"in: UPDATE "players" SET "score" = "players"."score" + $1 WHERE "players"."id" = $2"#))
      }
      #expect(try await Player.find(UUID(11)).select(\.score).fetchOne(db) == 30)
    }
  }

  /// A closure that catches a failed statement and goes on cannot commit: PostgreSQL aborted the
  /// transaction, and Strata says so rather than report a commit.
  @Test func aTransactionWithAFailedStatementIsNeverReportedCommitted() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      let database = db.postgreSQL
      await #expect {
        try await database.write { db in
          try await Game.insert { Game.Draft(title: "Kept?") }.execute(db)
          do {
            try await Game.insert { Game.Draft(id: UUID(1), title: "Duplicate") }.execute(db)
          } catch {
            // Caught, and the closure goes on.
          }
        }
      } throws: { error in
        "\(error)".contains("the transaction was rolled back, not committed: a statement in it failed")
      }
      #expect(try await Game.where { $0.title.eq("Kept?") }.fetchCount(db) == 0)
    }
  }

  @Test func readsCannotWrite() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      let database = db.postgreSQL
      await #expect {
        try await database.read { db in try await Player.update { $0.score = 0 }.execute(db) }
      } throws: { error in
        (error as? PostgreSQLError)?.sqlState == "25006"
      }
      #expect(try await database.read { db in try await Player.fetchCount(db) } == 3)
    }
  }

  @Test func brokenConstraintsAreReadFromTheServersError() async throws {
    try await TestDialect.postgreSQL.database(seeding: scorekeeperRows()) { db throws in
      func violation(_ statement: some QueryStatement) async -> ConstraintViolation? {
        do {
          try await statement.execute(db)
          return nil
        } catch {
          return ConstraintViolation(error)
        }
      }
      let duplicate = await violation(Game.insert { Game.Draft(id: UUID(1), title: "Again") })
      #expect(duplicate == ConstraintViolation(kind: .primaryKey, table: "games", columns: ["id"], check: nil))
      let orphan = await violation(Player.insert { Player.Draft(gameID: UUID(99), name: "Nobody") })
      #expect(orphan?.kind == .foreignKey)
      #expect(orphan?.table == "players")
      let negative = await violation(sql(#"INSERT INTO "roundScores" ("gameID", round, points) VALUES (\#(UUID(1)), 1, -1)"#))
      #expect(negative?.kind == .check)
      #expect(negative?.table == "roundScores")
      try await Label.insert { Label(name: "red") }.execute(db)
      let taken = await violation(Label.insert { Label(name: "red") })
      #expect(taken?.concerns(Label.self, \.name) == true)
      let missing = await violation(sql("INSERT INTO games (title) VALUES (NULL)"))
      #expect(missing == ConstraintViolation(kind: .notNull, table: "games", columns: ["title"], check: nil))
    }
  }
}

/// A count several tasks add to.
final class AttemptCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// One task tells another it may go on.
final class Gate: @unchecked Sendable {
  private let lock = NSLock()
  private var signaled = false

  func signal() {
    lock.withLock { signaled = true }
  }

  /// Waits for the signal, or records an issue after `timeout` and returns false: a test whose
  /// other side failed before it signalled fails instead of hanging.
  @discardableResult
  func wait(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !lock.withLock({ signaled }) {
      guard ContinuousClock.now < deadline else {
        Issue.record("not signalled within \(timeout)", sourceLocation: sourceLocation)
        return false
      }
      try? await Task.sleep(for: .milliseconds(2))
    }
    return true
  }
}
