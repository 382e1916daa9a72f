import Foundation
import Strata
import StrataPostgreSQL
import StrataSchema

/// `verifyUpgrades` over a history of `migrations` migrations (50 by default) the planner writes
/// from models that change one step at a time (columns added, renamed, made NOT NULL through a
/// rebuild), with `rows` rows per table: how long checking every upgrade takes.
enum UpgradeBenchmark {
  /// The models after `step` changes (0 to 49).
  static func models(after step: Int) -> String {
    var items = ["let id: Int", "let ownerID: Owner.ID", "var title = \"\"", "var score = 0"]
    var parts = ["let id: Int", "let itemID: Item.ID", "var label: String?"]
    for change in 1...max(step, 1) where step > 0 {
      switch change % 4 {
      case 1: items.append("var extra\(change) = 0")
      case 2: parts.append("var note\(change): String?")
      case 3:
        // The column the previous-but-one change added, renamed.
        items[items.count - 1] = "// @Renamed(from: \"extra\(change - 2)\")\n  var renamed\(change - 2) = 0"
      default:
        // The column the previous-but-one change added, made NOT NULL: a rebuild of parts.
        parts[parts.count - 1] = "var note\(change - 2) = \"\""
      }
    }
    return """
      struct Owner: Table {
        let id: Int
        var name = ""
      }
      struct Item: Table {
        \(items.joined(separator: "\n  "))
      }
      struct Part: Table {
        \(parts.joined(separator: "\n  "))
      }
      """
  }

  /// The history, planned for `dialect` (PostgreSQL's on the server `STRATA_POSTGRES_URL` names).
  static func history(in directory: URL, migrations: Int, dialect: DatabaseDialect = .sqlite) throws -> [Strata.Migration] {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for step in 0..<migrations {
      let plan = try MigrationPlanner.plan(
        models: try Generator(sources: [("Models.swift", models(after: step))]).models(for: dialect),
        migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "Bench")
      guard let migration = plan.newMigration else { fatalError("step \(step) planned no migration") }
      try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
    }
    return try MigrationFiles(directory: directory.path, root: nil).files.map {
      Strata.Migration(name: $0.name, checksum: $0.checksum, sql: $0.sql)
    }
  }

  static func run(rows: Int, migrations count: Int, postgres: String?) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-upgrades-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let migrations = try history(in: directory, migrations: count)
    print("verifyUpgrades: a \(migrations.count)-migration history, \(rows) rows per table (3 tables)")
    let clock = ContinuousClock()
    var report: UpgradeReport?
    let sqlite = try await clock.measure {
      report = try await verifyUpgrades(UpgradeVerification(migrations, rowsPerTable: rows))
    }
    print("  SQLite (in memory): \(report!.starts.count) starting schemas in \(sqlite)")
    if ProcessInfo.processInfo.environment["STRATA_BENCH_REPORT"] != nil { print(report!) }
    guard let postgres else { return }
    // The planner checks PostgreSQL migrations on the server STRATA_POSTGRES_URL names.
    setenv("STRATA_POSTGRES_URL", postgres, 1)
    let postgreSQLMigrations = try history(in: directory.appendingPathComponent("PostgreSQL"), migrations: count, dialect: .postgresql)
    let server = try await clock.measure {
      try await PostgreSQLDatabase.withDatabase(try .init(url: postgres)) { database in
        report = try await database.verifyUpgrades(UpgradeVerification(postgreSQLMigrations, rowsPerTable: rows))
      }
    }
    print("  PostgreSQL: \(report!.starts.count) starting schemas in \(server)")
  }
}
