import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// Reads sent to a replica and writes to the primary, with the same statements: two databases
/// on one server stand in for the two machines, the replica refusing writes as a hot standby does
/// (`default_transaction_read_only`). Nothing replicates between them here, which shows what a
/// lagging replica shows.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLReplicaTests {
  @Test func readsGoToTheReplicaAndWritesToThePrimary() async throws {
    let server = PostgreSQLTestServer.shared
    let primaryName = try await server.newDatabase()
    let replicaName = try await server.newDatabase()
    do {
      try await check(primaryName, replicaName)
    } catch {
      await server.drop(primaryName)
      await server.drop(replicaName)
      throw error
    }
    await server.drop(primaryName)
    await server.drop(replicaName)
  }

  func check(_ primaryName: String, _ replicaName: String) async throws {
    let server = PostgreSQLTestServer.shared
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: try server.url(of: primaryName)), configuration: PostgreSQLTestServer.patient) { primary in
      try await primary.withConnection { db in
        try await sql("ALTER DATABASE \(quote: replicaName) SET default_transaction_read_only = on").execute(db)
      }
      try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: try server.url(of: replicaName)), configuration: PostgreSQLTestServer.patient) { replica in
        let scoreboard = Player.order { $0.score.desc() }.select { ($0.name, $0.score) }
        let newPlayer = Player.insert { Player.Draft(id: UUID(11), gameID: UUID(1), name: "Blob", score: 20) }
        try await primary.write { db in
          try await Game.insert { Game.Draft(id: UUID(1), title: "Gin rummy") }.execute(db)
          try await newPlayer.execute(db)
        }
        // The replica is read-only: the same write is refused there.
        await #expect {
          try await replica.write { db in try await newPlayer.execute(db) }
        } throws: { error in
          (error as? PostgreSQLError)?.sqlState == "25006"
        }
        // Until replication catches up, the replica does not have the row: read-your-writes
        // reads go to the primary.
        #expect(try await replica.read { db in try await scoreboard.fetchAll(db) }.isEmpty)
        #expect(try await primary.read { db in try await scoreboard.fetchAll(db) }.map(\.0) == ["Blob"])
      }
    }
  }
}
