import Foundation
import Strata
import StrataSchema
import Testing

/// A target's models over time: each version's migration written as `generate-migrations`
/// writes it (with the schema snapshot), then run by `database.migrate` as the app's next launch
/// would.
final class ModelHistory {
  let directory: URL
  private(set) var snapshot: String?
  /// The snapshot before the last migration written, which discarding it restores.
  private var snapshotBefore: String?

  /// The database the migrations are written for.
  let dialect: DatabaseDialect

  init(dialect: DatabaseDialect = .sqlite) throws {
    self.dialect = dialect
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Writes the migration the models in `source` need, if any, and updates the snapshot.
  ///
  /// - Parameter settings: The compatibility window and releases of `strata.json`.
  @discardableResult
  func generate(_ source: String, allowDataLoss: Bool = false, settings: MigrationSettings = MigrationSettings()) throws -> MigrationPlan.NewMigration? {
    try plan(source, allowDataLoss: allowDataLoss, settings: settings).newMigration
  }

  /// ``generate(_:allowDataLoss:settings:)``, returning the whole plan.
  @discardableResult
  func plan(_ source: String, allowDataLoss: Bool = false, settings: MigrationSettings = MigrationSettings()) throws -> MigrationPlan {
    let files = try MigrationFiles(directory: directory.path, root: nil)
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", source)]).models(for: dialect),
      migrations: files, moduleName: "App",
      allowDataLoss: allowDataLoss, previousSnapshot: snapshot,
      window: try CompatibilityWindow.resolve(settings, files: files.files, at: SourceLocation(path: "strata.json", line: 1, column: 1)))
    if let migration = plan.newMigration {
      try migration.sql.write(to: directory.appendingPathComponent(migration.fileName), atomically: true, encoding: .utf8)
      snapshotBefore = snapshot
    }
    snapshot = plan.snapshot
    return plan
  }

  /// Writes a hand-written migration.
  func write(_ fileName: String, _ sql: String) throws {
    try sql.write(to: directory.appendingPathComponent(fileName), atomically: true, encoding: .utf8)
  }

  /// Removes the newest migration, which no database ran, to write it again.
  func discardNewest() throws {
    let newest = try #require(try MigrationFiles(directory: directory.path, root: nil).files.last)
    try FileManager.default.removeItem(atPath: newest.path)
    snapshot = snapshotBefore
  }

  /// The migrations, as the build plugin embeds them.
  var migrations: [Strata.Migration] {
    get throws {
      try MigrationFiles(directory: directory.path, root: nil).files.map {
        Strata.Migration(name: $0.name, checksum: $0.checksum, compatibleFrom: $0.compatibleFrom, sql: $0.sql)
      }
    }
  }
}
