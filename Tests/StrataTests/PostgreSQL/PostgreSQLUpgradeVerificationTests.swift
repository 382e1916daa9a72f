import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// `verifyUpgrades` on PostgreSQL, in a scratch schema of a real server's database.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLUpgradeVerificationTests {
  static let create = Migration(
    name: "0001_create_notes",
    sql: """
      CREATE TABLE "notes" ("id" uuid PRIMARY KEY DEFAULT gen_random_uuid(), "title" text NOT NULL, "score" integer, "weight" double precision,
        "data" bytea, "done" boolean NOT NULL DEFAULT false, "due" timestamptz, "meta" jsonb);
      CREATE TABLE "tags" ("id" bigint PRIMARY KEY, "noteID" uuid NOT NULL REFERENCES "notes"("id") ON DELETE CASCADE,
        "name" text NOT NULL UNIQUE CHECK (length("name") < 100));
      """)
  static let change = Migration(
    name: "0002_change",
    sql: """
      ALTER TABLE "notes" RENAME COLUMN "title" TO "heading";
      ALTER TABLE "tags" RENAME TO "labels";
      ALTER TABLE "notes" ALTER COLUMN "score" TYPE bigint;
      ALTER TABLE "notes" ADD COLUMN "pinned" boolean NOT NULL DEFAULT false;
      CREATE INDEX "labels_noteID" ON "labels"("noteID");
      """)

  @Test func renamesAndConversionsCarryEveryValueFromEverySchema() async throws {
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let report = try await database.verifyUpgrades(UpgradeVerification([Self.create, Self.change], rowsPerTable: 100, seed: 5))
      #expect(report.starts.map(\.schema) == ["0001_create_notes"])
      #expect(report.starts[0].rows == ["notes": 100, "tags": 100])
      #expect(report.starts[0].notes.sorted() == ["column \"title\" of \"notes\" is now \"heading\"", "table \"tags\" is now \"labels\""])
      // The scratch schema is gone, and the connection's search path is its own again.
      let schemas = try await database.read { db in
        try await sql("SELECT count(*) FROM pg_namespace WHERE nspname = 'strata_upgrade'", as: Int.self).fetchOne(db)
      }
      #expect(schemas == 0)
    }
  }

  @Test func aMigrationThatChangesAValueIsNamedWithTheRowAndTheValue() async throws {
    let shout = Migration(name: "0003_shout", sql: #"UPDATE "notes" SET "heading" = upper("heading")"#)
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      let error = await #expect(throws: UpgradeFailure.self) {
        try await database.verifyUpgrades(UpgradeVerification([Self.create, Self.change, shout], rowsPerTable: 30, startingSchemas: ["0001_create_notes"]))
      }
      #expect(error?.schema == "0001_create_notes")
      #expect(error?.migration == "0003_shout")
      #expect(error?.table == "notes")
      #expect(error?.problem.hasPrefix("column \"heading\" held '") == true, "\(String(describing: error))")
    }
  }
}
