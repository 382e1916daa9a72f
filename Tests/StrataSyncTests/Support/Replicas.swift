import Foundation
import Strata
import StrataSync

/// A replica in a fresh database file, migrated as an app's first launch does.
struct TestReplica {
  let database: any DatabaseWriter
  let sync: SyncReplica
  let path: String

  init(in folder: URL, name: String) throws {
    path = folder.appendingPathComponent("\(name).sqlite").path
    database = try openDatabase(.file(path))
    try database.migrate(StrataMigrations.all)
    sync = try SyncReplica(database, tables: StrataSyncedTables.all)
  }

  /// Every row of the synced tables, as SQLite stores them, in key order: what two replicas
  /// that have seen the same changes hold alike.
  func contents() throws -> [String] {
    try database.read { db in
      var lines: [String] = []
      for table in ["boards", "cards"] {
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
          lines.append(table + " " + row.databaseValues.map { describe(StoredValue($0)) }.joined(separator: ", "))
        }
      }
      return lines
    }
  }

  /// Sends everything this replica has to `other`, through the binary format.
  func send(to other: TestReplica, since cursor: SyncCursor = .start) throws {
    try other.sync.apply(try Changeset(decoding: try sync.changes(since: cursor).encoded()))
  }
}

/// A folder for one test's database files, removed after it.
func withTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}

/// A value as the tests show it: exactly, with a real's bits.
func describe(_ value: StoredValue) -> String {
  switch value {
  case .null: "NULL"
  case .integer(let integer): "\(integer)"
  case .real(let real): "\(real.bitPattern)r"
  case .text(let text): text.debugDescription
  case .blob(let bytes): "x'\(bytes.map { String(format: "%02x", $0) }.joined())'"
  }
}

/// ``withTemporaryFolder(_:)`` for an asynchronous test.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try await body(folder)
}
