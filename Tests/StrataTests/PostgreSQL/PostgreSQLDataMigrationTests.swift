import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// Data migrations written in Swift on PostgreSQL: in the migrations' transaction, recorded
/// with their checksum; one that throws names itself and keeps nothing of the run.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLDataMigrationTests {
  static let create = Migration(
    name: "0001_create_people", checksum: "c1",
    sql: #"CREATE TABLE "people" ("id" bigint PRIMARY KEY, "name" text NOT NULL); INSERT INTO "people" VALUES (1, '  Ada   Lovelace '), (2, 'Plato');"#)
  static let addInitials = Migration(name: "0002_add_initials", checksum: "c2", sql: #"ALTER TABLE "people" ADD COLUMN "initials" text NOT NULL DEFAULT '';"#)
  static let fill = Migration(name: "0003_fill_initials", checksum: "c3") { (db: PostgreSQLConnection) in
    for (id, name) in try await sql(#"SELECT "id", "name" FROM "people""#, as: (Int, String).self).fetchAll(db) {
      let initials = String(name.split(whereSeparator: \.isWhitespace).compactMap(\.first))
      try await sql(#"UPDATE "people" SET "initials" = \#(initials) WHERE "id" = \#(id)"#).execute(db)
    }
  }

  @Test func aDataMigrationRunsInItsPlace() async throws {
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let result = try await database.migrate([Self.create, Self.addInitials, Self.fill])
      #expect(result.applied == ["0001_create_people", "0002_add_initials", "0003_fill_initials"])
      let rows = try await database.read { db in
        try await sql(#"SELECT "initials" FROM "people" ORDER BY "id""#, as: String.self).fetchAll(db)
      }
      #expect(rows == ["AL", "P"])
      let checksum = try await database.read { db in
        try await sql("SELECT checksum FROM strata_migrations WHERE name = '0003_fill_initials'", as: String.self).fetchOne(db)
      }
      #expect(checksum == "c3")
    }
  }

  @Test func aDataMigrationThatThrowsNamesItselfAndKeepsNothing() async throws {
    struct Refused: Error, CustomStringConvertible { var description: String { "no initials for Plato" } }
    let failing = Migration(name: "0003_fill_initials", checksum: "c3") { (db: PostgreSQLConnection) in
      try await sql(#"UPDATE "people" SET "initials" = 'X'"#).execute(db)
      throw Refused()
    }
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate([Self.create])
      let error = await #expect(throws: StrataError.self) { try await database.migrate([Self.create, Self.addInitials, failing]) }
      #expect(error?.message.hasPrefix(#"the data migration "0003_fill_initials" failed, so the migrations stopped before changing anything"#) == true)
      #expect(try await database.migrationState([Self.create, Self.addInitials, failing]) == .pending(["0002_add_initials", "0003_fill_initials"]))
    }
  }

  @Test func upgradeChecksRunDataMigrations() async throws {
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let create = Migration(name: "0001_create_people", checksum: "c1", sql: #"CREATE TABLE "people" ("id" bigint PRIMARY KEY, "name" text NOT NULL);"#)
      let report = try await database.verifyUpgrades(UpgradeVerification([create, Self.addInitials, Self.fill], rowsPerTable: 20))
      #expect(report.starts.count == 2)
      #expect(report.starts[1].notes.contains { $0.hasPrefix("0003_fill_initials (Swift): changed \"people\"") })
    }
  }
}
