import Foundation
import GRDB
import Strata
import Testing

@Suite struct UpgradeVerificationTests {
  static let notes = Migration(
    name: "0001_create_notes",
    sql: """
      CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "score" INTEGER, "weight" REAL, "data" BLOB, "extra" ANY) STRICT;
      CREATE TABLE "tags" ("id" TEXT PRIMARY KEY NOT NULL, "noteID" INTEGER NOT NULL REFERENCES "notes"("id") ON DELETE CASCADE, "name" TEXT NOT NULL UNIQUE CHECK (length("name") < 100)) STRICT;
      """)
  static let renames = Migration(
    name: "0002_rename",
    sql: """
      ALTER TABLE "notes" RENAME COLUMN "title" TO "heading";
      ALTER TABLE "tags" RENAME TO "labels";
      ALTER TABLE "notes" ADD COLUMN "pinned" INTEGER NOT NULL DEFAULT 0;
      """)
  /// A rebuild that makes "score" TEXT: every value converts exactly.
  static let rebuild = Migration(
    name: "0003_rebuild_notes",
    sql: """
      CREATE TABLE "new_notes" ("id" INTEGER PRIMARY KEY, "heading" TEXT NOT NULL, "score" TEXT, "weight" REAL, "data" BLOB, "extra" ANY, "pinned" INTEGER NOT NULL DEFAULT 0) STRICT;
      INSERT INTO "new_notes" SELECT "id", "heading", "score", "weight", "data", "extra", "pinned" FROM "notes";
      DROP TABLE "notes";
      ALTER TABLE "new_notes" RENAME TO "notes";
      """)

  @Test func renamesAndConversionsCarryEveryValueFromEverySchema() async throws {
    let report = try await verifyUpgrades(UpgradeVerification([Self.notes, Self.renames, Self.rebuild], rowsPerTable: 200, seed: 3))
    #expect(report.starts.map(\.schema) == ["0001_create_notes", "0002_rename"])
    #expect(report.starts.map(\.migrations) == [["0002_rename", "0003_rebuild_notes"], ["0003_rebuild_notes"]])
    #expect(report.starts[0].rows == ["notes": 200, "tags": 200])
    #expect(report.starts[0].notes.contains("table \"tags\" is now \"labels\""))
    #expect(report.starts[0].notes.contains("column \"title\" of \"notes\" is now \"heading\""))
    #expect(report.starts[1].rows == ["notes": 200, "labels": 200])
    #expect(report.starts[1].notes.isEmpty)
  }

  /// What the planner's guard refuses by itself: Int64.max and 2^53 + 1 have no REAL of their own.
  @Test func aConversionThatRoundsANumberIsCaught() async throws {
    let real = Migration(
      name: "0002_real_scores",
      sql: """
        CREATE TABLE "new_notes" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "score" REAL, "weight" REAL, "data" BLOB, "extra" ANY) STRICT;
        INSERT INTO "new_notes" SELECT * FROM "notes";
        DROP TABLE "notes";
        ALTER TABLE "new_notes" RENAME TO "notes";
        """)
    let error = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(UpgradeVerification([Self.notes, real], rowsPerTable: 20))
    }
    #expect(error?.migration == "0002_real_scores")
    #expect(error?.problem.hasPrefix("column \"score\" held ") == true)
    #expect(error?.problem == "column \"score\" held 9223372036854775807, and holds 9.223372036854776e+18 after migrating")
  }

  @Test func theTestModelsHistoryUpgradesFromEverySchemaBeforeItsEnumGroupCheck() async throws {
    let names = StrataMigrations.all.map(\.name)
    let report = try await verifyUpgrades(
      UpgradeVerification(StrataMigrations.all, rowsPerTable: 40, seed: 7, startingSchemas: Array(names[..<5])))
    #expect(report.starts.count == 5)
    #expect(report.starts.allSatisfy { $0.rows.values.allSatisfy { $0 == 40 } })
  }

  /// 0008 of the test models turns four columns into an enum group, checking that each row holds
  /// exactly one case: the generated rows, which the schema allows, do not, and the migration
  /// stops as it would on a user's device with such rows.
  @Test func aMigrationsCheckThatStopsIsAFailureNamingTheRowAndTheSeed() async throws {
    let error = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(
        UpgradeVerification(StrataMigrations.all, rowsPerTable: 10, seed: 7, startingSchemas: ["0006_create_attachments_and_shipments"]))
    }
    #expect(error?.schema == "0006_create_attachments_and_shipments")
    #expect(error?.migration == "0008_rebuild_attachments_and_shipments")
    #expect(error?.description.contains("would hold no single, whole case of 'kind' (Attachment.Kind)") == true)
    #expect(error?.description.hasSuffix("Replay with seed 7 and 10 rows per table.") == true)
  }

  @Test func aMigrationThatChangesAValueIsNamedWithTheRowAndTheValue() async throws {
    let shout = Migration(name: "0003_shout", sql: #"UPDATE "notes" SET "heading" = upper("heading") WHERE "id" % 2 = 0"#)
    let pin = Migration(name: "0004_pin", sql: #"UPDATE "notes" SET "pinned" = 1"#)
    let error = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(UpgradeVerification([Self.notes, Self.renames, shout, pin], rowsPerTable: 50, seed: 11, startingSchemas: ["0002_rename"]))
    }
    #expect(error?.schema == "0002_rename")
    #expect(error?.migration == "0003_shout")
    #expect(error?.table == "notes")
    #expect(error?.row?.hasPrefix("\"id\" = ") == true)
    #expect(error?.problem.hasPrefix("column \"heading\" held '") == true, "\(String(describing: error))")
  }

  @Test func aLostRowAndABrokenFullTextIndexAreFailures() async throws {
    let lose = Migration(name: "0002_lose", sql: #"DELETE FROM "tags" WHERE rowid IN (SELECT rowid FROM "tags" LIMIT 1)"#)
    let lost = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(UpgradeVerification([Self.notes, lose], rowsPerTable: 20))
    }
    #expect(lost?.migration == "0002_lose")
    #expect(lost?.table == "tags")
    #expect(lost?.problem == "the row is gone (20 rows before, 19 after)")

    let search = Migration(
      name: "0001_create_documents",
      sql: """
        CREATE TABLE "documents" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL) STRICT;
        CREATE VIRTUAL TABLE "documentsIndex" USING fts5("body", content="documents", content_rowid="id");
        CREATE TRIGGER "documents_ai" AFTER INSERT ON "documents" BEGIN INSERT INTO "documentsIndex"(rowid, "body") VALUES (new."id", new."body"); END;
        """)
    let ghost = Migration(name: "0002_ghost", sql: #"INSERT INTO "documentsIndex"(rowid, "body") VALUES (-1, 'a ghost')"#)
    let broken = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(UpgradeVerification([search, ghost], rowsPerTable: 20))
    }
    #expect(broken?.migration == "0002_ghost")
    #expect(broken?.problem.hasPrefix("the full-text index \"documentsIndex\" fails FTS5's integrity-check") == true)
  }

  @Test func theSameSeedWritesTheSameRows() async throws {
    let verification = UpgradeVerification([Self.notes, Self.renames], rowsPerTable: 30, seed: 99)
    let first = try await verifyUpgrades(verification)
    let second = try await verifyUpgrades(verification)
    #expect(first.description == second.description)
    #expect(first.starts[0].rows == ["notes": 30, "tags": 30])
  }
}
