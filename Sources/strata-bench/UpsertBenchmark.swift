import Foundation
import GRDB
import GRDBSQLite
import Strata

/// Seed 004's batch upsert: records synced from a server, inserted or, when one with the same
/// library and remote id exists, updated if the incoming version is newer. Half of the records
/// exist before each run, so half the upserts update and half insert.
enum UpsertBenchmark {
  static let sql = """
    INSERT INTO "syncItems" ("id", "name", "libraryID", "remoteID", "updatedAt") VALUES (?, ?, ?, ?, ?) \
    ON CONFLICT ("libraryID", "remoteID") DO UPDATE SET "name" = "excluded"."name", "updatedAt" = "excluded"."updatedAt" \
    WHERE "excluded"."updatedAt" >= "syncItems"."updatedAt"
    """

  static func run(_ database: some DatabaseWriter, rows: Int, runs: Int) throws {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let existing = (0..<rows / 2).map { index in
      SyncItem(id: UUID(), name: "Item \(index)", libraryID: index % 10, remoteID: index, updatedAt: start)
    }
    let incoming = (0..<rows).map { index in
      SyncItem.Draft(
        id: UUID(), name: "Item \(index) v2", libraryID: index % 10, remoteID: index, updatedAt: start.addingTimeInterval(60))
    }

    /// Resets the table to the existing half, then times `upsert` in one transaction and checks
    /// that every record is there with its new name.
    func timedUpsert(_ upsert: (Database) throws -> Void) throws -> Duration {
      try database.write { db in
        try SyncItem.delete().execute(db)
        try SyncItem.insert { existing }.execute(db)
      }
      return try database.write { db in
        let duration = try timed { try upsert(db) }
        guard try SyncItem.fetchCount(db) == rows, try SyncItem.where({ $0.name.hasSuffix(" v2") }).fetchCount(db) == rows
        else { fatalError("the upsert lost or missed records") }
        return duration
      }
    }

    let comparison = Comparison(title: "upsert \(rows) records (half new) in one transaction")
    comparison.measure("raw sqlite3 cached statement (floor)", runs: runs) {
      try timedUpsert { db in raw(incoming, db.sqliteConnection!) }
    }
    comparison.measure("GRDB cachedStatement, SQLiteData's documented form", runs: runs) {
      try timedUpsert { db in
        let statement = try db.cachedStatement(sql: sql)
        for item in incoming {
          try statement.execute(arguments: [UUIDText.format(item.id!), item.name, item.libraryID, item.remoteID, DateText.format(item.updatedAt)])
        }
      }
    }
    comparison.measure("Strata upsert per record", runs: runs) {
      try timedUpsert { db in
        for item in incoming { try upsert { item }.execute(db) }
      }
    }
    comparison.measure("Strata upsert of every record (multi-row VALUES)", runs: runs) {
      try timedUpsert { db in try upsert { incoming }.execute(db) }
    }
    comparison.report(baseline: "raw sqlite3 cached statement (floor)", also: "GRDB cachedStatement, SQLiteData's documented form")
  }

  /// SQLiteData's documented upsert through the builder.
  static func upsert(@InsertValuesBuilder<SyncItem> _ rows: () -> InsertValues<SyncItem>) -> Insert<SyncItem, ()> {
    SyncItem.insert(
      rows, onConflict: { ($0.libraryID, $0.remoteID) }, where: { _ in },
      doUpdate: { row, incoming in
        row.name = incoming.name
        row.updatedAt = incoming.updatedAt
      },
      where: { row, incoming in incoming.updatedAt >= row.updatedAt })
  }

  private static func raw(_ items: [SyncItem.Draft], _ connection: OpaquePointer) {
    var statement: OpaquePointer?
    sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    defer { sqlite3_finalize(statement) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for item in items {
      RawSQLite.bind(item.id!, 1, statement)
      sqlite3_bind_text(statement, 2, item.name, -1, transient)
      sqlite3_bind_int64(statement, 3, Int64(item.libraryID))
      sqlite3_bind_int64(statement, 4, Int64(item.remoteID))
      sqlite3_bind_text(statement, 5, DateText.format(item.updatedAt), -1, transient)
      guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(connection))) }
      sqlite3_reset(statement)
    }
  }
}
