import Foundation
import Strata
import StrataSchema
import StrataSync

/// What sync's capture costs a write, how large changesets are, and how fast a replica applies
/// them: a synced table and the same table unsynced, written with the same cached statements.
enum SyncBenchmark {
  static let models = """
    // @Synced
    struct Note: Table {
      let id: UUID
      var title = ""
      var body = ""
      var score = 0
    }
    struct PlainNote: Table {
      let id: UUID
      var title = ""
      var body = ""
      var score = 0
    }
    """

  static let tables = [
    SyncedTable("notes", key: "id", columns: [SyncedColumn("title"), SyncedColumn("body"), SyncedColumn("score")])
  ]

  /// A database file with both tables, migrated.
  static func replica(in directory: URL, _ name: String) throws -> (any DatabaseWriter, SyncReplica) {
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", models)]).models(for: .sqlite),
      migrations: try MigrationFiles(directory: directory.appendingPathComponent("none").path, root: nil), moduleName: "Bench")
    guard let migration = plan.newMigration else { fatalError("no migration planned") }
    let database = try openDatabase(.file(directory.appendingPathComponent("\(name).sqlite").path))
    try database.migrate([Strata.Migration(name: migration.fileName, checksum: "", sql: migration.sql)])
    return (database, try SyncReplica(database, tables: tables))
  }

  static func run(rows: Int, runs: Int) throws {
    print("sync: \(rows) rows of 4 columns (UUID key, two texts, an integer), \(runs) runs, medians")
    var insertRatios: [Double] = []
    var updateRatios: [Double] = []
    var insertTimes: [(plain: Double, synced: Double)] = []
    var updateTimes: [(plain: Double, synced: Double)] = []
    var applyInserts: [Double] = []
    var applyUpdates: [Double] = []
    var insertBytes = 0
    var updateBytes = 0
    for run in 0..<runs {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-sync-\(ProcessInfo.processInfo.processIdentifier)-\(run)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let (database, sync) = try replica(in: directory, "a")
      let (other, otherSync) = try replica(in: directory, "b")
      let keys = (0..<rows).map { _ in UUID().uuidString.lowercased() }
      func time(_ body: (Database) throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try database.write(body)
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      }
      func insert(into table: String) throws -> Double {
        try time { db in
          let statement = try db.cachedStatement(sql: "INSERT INTO \(table) (id, title, body, score) VALUES (?, ?, ?, ?)")
          for (index, key) in keys.enumerated() { try statement.execute(arguments: [key, "Note \(index)", "Some text to sync", index]) }
        }
      }
      func update(_ table: String) throws -> Double {
        try time { db in
          let statement = try db.cachedStatement(sql: "UPDATE \(table) SET score = ? WHERE id = ?")
          for (index, key) in keys.enumerated() { try statement.execute(arguments: [index + 1, key]) }
        }
      }
      let plainInsert = try insert(into: "plainNotes")
      let syncedInsert = try insert(into: "notes")
      insertRatios.append(syncedInsert / plainInsert)
      insertTimes.append((plainInsert, syncedInsert))
      let inserted = try sync.changes()
      let plainUpdate = try update("plainNotes")
      let syncedUpdate = try update("notes")
      updateRatios.append(syncedUpdate / plainUpdate)
      updateTimes.append((plainUpdate, syncedUpdate))
      let updated = try sync.changes(since: inserted.cursor)
      insertBytes = inserted.encoded().count
      updateBytes = updated.encoded().count
      var start = ContinuousClock.now
      try otherSync.apply(try Changeset(decoding: inserted.encoded()))
      var elapsed = ContinuousClock.now - start
      applyInserts.append(Double(rows) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
      start = ContinuousClock.now
      try otherSync.apply(try Changeset(decoding: updated.encoded()))
      elapsed = ContinuousClock.now - start
      applyUpdates.append(Double(rows) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
      let count = try other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notes WHERE score > 0") ?? 0 }
      guard count == rows else { fatalError("the other replica has \(count) updated rows of \(rows)") }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func perRow(_ times: [(plain: Double, synced: Double)]) -> (Double, Double) {
      (median(times.map(\.plain)) / Double(rows) * 1e6, median(times.map(\.synced)) / Double(rows) * 1e6)
    }
    let (plainInsert, syncedInsert) = perRow(insertTimes)
    let (plainUpdate, syncedUpdate) = perRow(updateTimes)
    print(String(format: "  captured insert: %.2fx the same insert into an unsynced table (%.2f µs vs %.2f µs a row)", median(insertRatios), syncedInsert, plainInsert))
    print(String(format: "  captured update of one column: %.2fx the same update of an unsynced table (%.2f µs vs %.2f µs a row)", median(updateRatios), syncedUpdate, plainUpdate))
    print(String(format: "  changeset of the inserts: %.1f bytes per row, %.1f per column", Double(insertBytes) / Double(rows), Double(insertBytes) / Double(rows * 4)))
    print(String(format: "  changeset of the one-column updates: %.1f bytes per changed column (whole rows are sent)", Double(updateBytes) / Double(rows)))
    print(String(format: "  applied: %.0f new rows/s, %.0f updated rows/s", median(applyInserts), median(applyUpdates)))
  }
}
