import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// A squash on PostgreSQL: as on SQLite, a new database runs it, one that ran some of what it
/// replaces runs the others first, and one that ran all records it.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLSquashTests {
  static let create = Migration(name: "0001_create_notes", checksum: "c1", sql: #"CREATE TABLE "notes" ("id" bigint PRIMARY KEY, "body" text NOT NULL);"#)
  static let addTitle = Migration(name: "0002_add_title", checksum: "c2", sql: #"ALTER TABLE "notes" ADD COLUMN "title" text;"#)
  static let squash = Migration(
    name: "0002_squashed", checksum: "s2", replaces: [create, addTitle],
    sql: #"CREATE TABLE "notes" ("id" bigint PRIMARY KEY, "body" text NOT NULL, "title" text);"#)
  static let pin = Migration(name: "0003_pin", checksum: "c3", sql: #"ALTER TABLE "notes" ADD COLUMN "pinned" boolean NOT NULL DEFAULT false;"#)

  @Test func eachDatabaseTakesTheSquashItsWay() async throws {
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let new = try await database.migrate([Self.squash, Self.pin])
      #expect(new.applied == ["0002_squashed", "0003_pin"])
    }
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate([Self.create])
      let partway = try await database.migrate([Self.squash, Self.pin])
      #expect(partway.applied == ["0002_add_title", "0003_pin"])
      #expect(partway.recorded == ["0002_squashed"])
      #expect(try await database.migrationState([Self.squash, Self.pin]) == .upToDate)
    }
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let report = try await database.verifyUpgrades(UpgradeVerification([Self.squash, Self.pin], rowsPerTable: 20))
      #expect(report.starts.map(\.schema) == ["0001_create_notes", "0002_add_title", "0002_squashed"])
    }
  }
}
