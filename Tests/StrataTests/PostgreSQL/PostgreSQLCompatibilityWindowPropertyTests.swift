import Foundation
import Strata
import StrataPostgreSQL
import StrataSchema
import Testing
import StrataTestSupport

/// The compatibility window's random sequences on PostgreSQL (see
/// `CompatibilityWindowPropertyTests`): fewer, since each plan replays the migrations on the
/// server. `WINDOW_SEQUENCES_POSTGRESQL=20` runs more.
@Suite(.serialized, .blockingWork, .enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLCompatibilityWindowPropertyTests {
  static let sequences = Int(ProcessInfo.processInfo.environment["WINDOW_SEQUENCES_POSTGRESQL"] ?? "") ?? 2

  @Test(arguments: 0..<sequences, [1, 2])
  func oldAndNewStatementsInterleaveAndNothingIsLost(seed: Int, window: Int) async throws {
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await CompatibilityWindowPropertyTests.run(
        seed: seed, window: window,
        on: .init(
          dialect: .postgresql, migrate: { try await database.migrate($0) },
          execute: { text in try await database.write { db in try await sql(SQLQuery(stringLiteral: text)).execute(db) } },
          rows: { text in try await database.read { db in try await sql(SQLQuery(stringLiteral: text), as: String.self).fetchAll(db) } }))
    }
  }
}
