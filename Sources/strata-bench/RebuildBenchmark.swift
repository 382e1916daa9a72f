import Foundation
import GRDB
import Strata
import StrataSchema

/// A table rebuild through the migration the generator writes, run by GRDB's migrator, beside
/// the copy a person would write by hand (`INSERT INTO new SELECT … FROM old` and the same
/// index builds), on copies of one database file; and how long planning a change takes.
enum RebuildBenchmark {
  static let models = """
    struct Owner: Table {
      let id: Int
      var name = ""
    }
    struct Item: Table {
      let id: Int
      let ownerID: Owner.ID
      var title = ""
      // @Index
      var score = 0
      var note: String?
    }
    struct Part: Table {
      let id: Int
      let itemID: Item.ID
    }
    """

  /// `note` becomes NOT NULL with a default: SQLite's ALTER TABLE cannot do it, so the table is
  /// rebuilt.
  static let changed = models.replacingOccurrences(of: "var note: String?", with: "var note = \"\"")

  static func run(rows: Int, runs: Int) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-rebuild-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let migrations = directory.appendingPathComponent("Migrations")
    let first = try plan(models, in: migrations)
    let second = try plan(changed, in: migrations)
    guard second.sql.contains("DROP TABLE \"items\"") else { fatalError("the change did not rebuild the table") }

    // The database every run starts from: a copy of this file.
    let original = directory.appendingPathComponent("original.sqlite").path
    let filled = try openDatabase(.file(original))
    try filled.migrate([first])
    try filled.write { db in
      try db.execute(sql: "INSERT INTO owners (id, name) VALUES (1, 'owner')")
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
          INSERT INTO items (id, ownerID, title, score, note)
          SELECT i, 1, 'item ' || i, i % 1000, CASE WHEN i % 2 = 0 THEN 'note' END FROM n
          """, arguments: [rows])
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
          INSERT INTO parts (id, itemID) SELECT i, i FROM n
          """, arguments: [max(rows / 10, 1)])
    }
    try filled.close()

    let comparison = Comparison(title: "rebuild a table of \(rows) rows with two indexes and a child table")
    /// A copy of the original; the previous copy is deleted, so that runs do not fill the disk.
    var copy: String?
    func fresh() throws -> any DatabaseWriter {
      if let copy { try? FileManager.default.removeItem(atPath: copy) }
      let path = directory.appendingPathComponent("copy-\(UUID().uuidString).sqlite").path
      copy = path
      try FileManager.default.copyItem(atPath: original, toPath: path)
      return try openDatabase(.file(path))
    }
    comparison.measure("hand-written copy and index builds (floor)", runs: runs) {
      let database = try fresh()
      // Both contenders are timed with their commit, which writes the new pages.
      let duration = try timed {
        try database.write { db in
          try db.execute(
            sql: """
              CREATE TABLE "items_copy" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "ownerID" INTEGER NOT NULL REFERENCES "owners"("id") ON DELETE CASCADE, "title" TEXT NOT NULL DEFAULT '', "score" INTEGER NOT NULL DEFAULT 0, "note" TEXT NOT NULL DEFAULT '') STRICT;
              INSERT INTO "items_copy" ("id", "ownerID", "title", "score", "note") SELECT "id", "ownerID", "title", "score", coalesce("note", '') FROM "items";
              CREATE INDEX "copy_on_ownerID" ON "items_copy"("ownerID");
              CREATE INDEX "copy_on_score" ON "items_copy"("score");
              """)
        }
      }
      try check(database, table: "items_copy", rows: rows)
      return duration
    }
    comparison.measure("Strata's generated migration on GRDB's migrator", runs: runs) {
      let database = try fresh()
      let duration = try timed { try database.migrate([first, second]) }
      try check(database, table: "items", rows: rows)
      return duration
    }
    comparison.report(baseline: "hand-written copy and index builds (floor)", also: nil)
  }

  /// Every row and every child is still there, with the NULL notes filled.
  private static func check(_ database: any DatabaseWriter, table: String, rows: Int) throws {
    let (count, nulls, children) = try database.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0,
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\" WHERE note IS NULL") ?? -1,
        try Int.fetchOne(db, sql: "SELECT count(*) FROM parts") ?? 0
      )
    }
    guard count == rows, nulls == 0, children == max(rows / 10, 1) else {
      fatalError("the rebuild lost rows: \(count) rows, \(nulls) NULL notes, \(children) children")
    }
  }

  /// Plans and writes the migration for `source`.
  private static func plan(_ source: String, in directory: URL) throws -> Strata.Migration {
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", source)]).models(),
      migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "Bench")
    guard let migration = plan.newMigration else { fatalError("no migration planned") }
    try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
    let file = try MigrationFiles(directory: directory.path, root: nil).files.last!
    return Strata.Migration(name: file.name, checksum: file.checksum, sql: file.sql)
  }

  /// Planning one table's change in a 500-table model: read the models, replay the migrations,
  /// plan, check the migration in SQLite, snapshot.
  static func runPlanning(runs: Int) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-plan-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let sources = SyntheticModels.sources(tables: 500)
    let first = try MigrationPlanner.plan(
      models: try Generator(sources: sources).models(), migrations: try MigrationFiles(directory: directory.path, root: nil),
      moduleName: "Bench")
    try AtomicFile.write(first.newMigration!.sql, to: directory.appendingPathComponent(first.newMigration!.fileName).path)

    let comparison = Comparison(title: "plan a change to one table of a 500-table model")
    /// The sources with the first `old` after Model250's declaration replaced by `new`.
    func changingModel250(_ old: String, _ new: String) -> [(path: String, contents: String)] {
      sources.map { source in
        guard let start = source.contents.range(of: "struct Model250: Table"),
          let target = source.contents.range(of: old, range: start.upperBound..<source.contents.endIndex)
        else { return source }
        return (source.path, source.contents.replacingCharacters(in: target, with: new))
      }
    }
    for (name, changed) in [
      ("add a column", changingModel250("  var name = \"\"\n", "  var name = \"\"\n  var added = 0\n")),
      ("rebuild the table (a column becomes NOT NULL)", changingModel250("  var notes: String?\n", "  var notes = \"\"\n")),
    ] {
      comparison.measure(name, runs: runs) {
        try timed {
          let plan = try MigrationPlanner.plan(
            models: try Generator(sources: changed).models(), migrations: try MigrationFiles(directory: directory.path, root: nil),
            moduleName: "Bench")
          guard plan.newMigration?.summary.count == 1 else { fatalError("not one change: \(plan.newMigration?.summary ?? [])") }
        }
      }
    }
    comparison.report(baseline: nil, also: nil)
  }
}
