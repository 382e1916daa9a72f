import Foundation
import GRDB
import Strata
import StrataSQL
import StrataSchema
import StrataSync
import Testing

#if SyncServer
import StrataSyncClient
import StrataSyncServer
#endif

/// A synced column renamed through a compatibility window syncs as one column across app
/// versions: the sync harness's app, whose migration 0002 renames `folders.title` to `name`
/// (keeping `title` in step) and adds `color`, and whose 0003 drops `title`.
@Suite struct RenameTests {
  /// The harness's checked-in migrations, through `through`, as its build embeds them.
  static func migrations(through last: Int, server: Bool = false) throws -> [Strata.Migration] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/strata-sync-harness/\(server ? "ServerMigrations" : "Migrations")").standardized.path
    return try MigrationFiles(directory: folder, root: nil).files.prefix(last).map {
      Strata.Migration(name: $0.name, checksum: $0.checksum, compatibleFrom: $0.compatibleFrom, sql: $0.sql)
    }
  }

  /// The harness's synced tables as its newest models describe them.
  static let tables = [
    SyncedTable(
      "folders", key: "id",
      columns: [
        SyncedColumn("name", formerName: "title"), SyncedColumn("color"), SyncedColumn("slug"), SyncedColumn("rank", merge: .max),
        SyncedColumn("visits", merge: .counter), SyncedColumn("labels", merge: .union), SyncedColumn("summary"),
      ]),
    SyncedTable("notes", key: "id", columns: [SyncedColumn("folderID"), SyncedColumn("text"), SyncedColumn("position")]),
  ]

  struct Device {
    let database: any DatabaseWriter
    var sync: SyncReplica

    /// The device `name` in `folder`, its app at `schema` (that many migrations).
    init(in folder: URL, _ name: String, schema: Int) throws {
      database = try openDatabase(.file(folder.appendingPathComponent("\(name).sqlite").path))
      try database.migrate(try RenameTests.migrations(through: schema))
      sync = try SyncReplica(database, tables: RenameTests.tables)
    }

    /// Runs the migrations through `schema`, as the app's update does, and opens sync again.
    mutating func update(to schema: Int) throws {
      try database.migrate(try RenameTests.migrations(through: schema))
      sync = try SyncReplica(database, tables: RenameTests.tables)
    }

    func folder(_ columns: String) throws -> [String?] {
      try database.read { db in
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM folders").map { row in row.databaseValues.map { String.fromDatabaseValue($0) } } ?? []
      }
    }

    func send(to other: Device, since cursor: SyncCursor = .start) throws -> SyncCursor {
      let changes = try sync.changes(since: cursor)
      try other.sync.apply(try Changeset(decoding: changes.encoded()))
      return changes.cursor
    }
  }

  static let id = "00000000-0000-0000-0000-00000000000f"

  @Test func aColumnRenamedThroughTheWindowSyncsAsOneColumnAcrossAppVersions() throws {
    try withTemporaryFolder { folder in
      var old = try Device(in: folder, "old", schema: 1)
      let new = try Device(in: folder, "new", schema: 2)

      // The older version inserts; the newer one reads the row under the new name.
      try old.database.write { db in try db.execute(sql: "INSERT INTO folders (id, title) VALUES (?, 'Plans')", arguments: [Self.id]) }
      var oldSent = try old.send(to: new)
      #expect(try new.folder("name, title") == ["Plans", "Plans"])

      // The newer version writes the new name: it is sent under both names, and the older
      // version applies the one it knows.
      try new.database.write { db in try db.execute(sql: "UPDATE folders SET name = 'Ideas', color = 'teal' WHERE id = ?", arguments: [Self.id]) }
      let sent = try new.sync.changes()
      #expect(sent.rows[0].columns.map(\.name) == ["color", "labels", "name", "rank", "slug", "summary", "title", "visits"])
      var newSent = try new.send(to: old)
      #expect(try old.folder("title") == ["Ideas"])

      // The older version writes the former name, later: one column, so the later write wins,
      // with no conflict between the two names.
      try old.database.write { db in try db.execute(sql: "UPDATE folders SET title = 'Later' WHERE id = ?", arguments: [Self.id]) }
      oldSent = try old.send(to: new, since: oldSent)
      #expect(try new.folder("name, title, color") == ["Later", "Later", "teal"])
      #expect(try new.sync.conflicts().isEmpty)

      // The older version writes offline, then updates past the contract step: the newer value
      // it held for `name` gives way to its own later write, which it sends as `name`.
      try old.database.write { db in try db.execute(sql: "UPDATE folders SET title = 'Offline' WHERE id = ?", arguments: [Self.id]) }
      try old.update(to: 3)
      #expect(try old.folder("name") == ["Offline"])
      let pending = try old.sync.changes(since: oldSent)
      #expect(pending.rows.count == 1)
      #expect(pending.rows[0].columns.map(\.name).contains("name"))
      #expect(!pending.rows[0].columns.map(\.name).contains("title"))
      _ = try old.send(to: new, since: oldSent)
      #expect(try new.folder("name, title") == ["Offline", "Offline"])
      // The next apply writes the column the update added (`color`, held since it arrived).
      newSent = try new.send(to: old, since: newSent)
      #expect(try old.folder("name, color") == ["Offline", "teal"])
      #expect(try old.sync.conflicts().isEmpty)
      #expect(try new.sync.conflicts().isEmpty)
    }
  }

  @Test func theExpandStepsCopyIsNotAWriteThatOverwritesAnotherReplicas() throws {
    try withTemporaryFolder { folder in
      let writer = try Device(in: folder, "writer", schema: 1)
      var updated = try Device(in: folder, "updated", schema: 1)
      try writer.database.write { db in try db.execute(sql: "INSERT INTO folders (id, title) VALUES (?, 'Plans')", arguments: [Self.id]) }
      let cursor = try writer.send(to: updated)
      // A write the other device has not seen when it updates: the migration's copy of `title`
      // to `name` is no write of its own, so the earlier write still wins.
      try writer.database.write { db in try db.execute(sql: "UPDATE folders SET title = 'Written first' WHERE id = ?", arguments: [Self.id]) }
      try updated.update(to: 2)
      #expect(try updated.sync.changes(since: .start).rows[0].columns.first { $0.name == "name" }?.values.count == 1)
      _ = try writer.send(to: updated, since: cursor)
      #expect(try updated.folder("name, title") == ["Written first", "Written first"])
      _ = try updated.send(to: writer)
      #expect(try writer.folder("title") == ["Written first"])
    }
  }

  /// Two devices of the first schema, each with a folder of one slug: the second's waits where
  /// both arrive.
  static func twoFoldersWithOneSlug(in folder: URL) throws -> (first: Device, second: Device) {
    let first = try Device(in: folder, "first", schema: 1)
    let second = try Device(in: folder, "second", schema: 1)
    try first.database.write { db in try db.execute(sql: "INSERT INTO folders (id, title, slug) VALUES (?, 'First', 's')", arguments: [Self.id]) }
    // Two inserts in one millisecond tie, and the tie goes to the smaller replica id, a random
    // one: the second inserts in a later millisecond of the clock the stamps read, so that it
    // is the one that waits.
    let firstInserted = try first.database.read(Self.milliseconds)
    while try second.database.read(Self.milliseconds) <= firstInserted { usleep(500) }
    try second.database.write { db in try db.execute(sql: "INSERT INTO folders (id, title, slug) VALUES (?, 'Second', 's')", arguments: [Self.other]) }
    return (first, second)
  }

  static let other = "00000000-0000-0000-0000-0000000000ee"

  /// The wall clock the capture triggers stamp writes with, in milliseconds.
  static func milliseconds(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT \(SyncTables.wallClockMilliseconds)") ?? 0
  }

  @Test func aRowThatWaitedSinceBeforeTheRenameComesInUnderTheNewName() throws {
    try withTemporaryFolder { folder in
      var device = try Device(in: folder, "device", schema: 1)
      let (first, second) = try Self.twoFoldersWithOneSlug(in: folder)
      _ = try first.send(to: device)
      _ = try second.send(to: device)
      #expect(try device.database.read { db in try String.fetchAll(db, sql: "SELECT title FROM folders") } == ["First"])
      // The app updates past the contract step while the second folder waits, held under `title`.
      try device.update(to: 3)
      try first.database.write { db in try db.execute(sql: "UPDATE folders SET slug = 't' WHERE id = ?", arguments: [Self.id]) }
      _ = try first.send(to: device)
      let names = try device.database.read { db in try String.fetchAll(db, sql: "SELECT name FROM folders ORDER BY id") }
      #expect(names == ["First", "Second"])
    }
  }

  #if SyncServer
  @Test(.enabled(if: TestSyncServer.isAvailable)) func aRowTheServerHeldSinceBeforeItsMigrationComesInUnderTheNewName() async throws {
    let migrations = try Self.migrations(through: 3, server: true)
    try await TestSyncServer.run(schema: migrations[0].sql, tables: Self.tables) { server in
      try await withTemporaryFolder { folder in
        let device = try Device(in: folder, "device", schema: 3)
        let (first, second) = try Self.twoFoldersWithOneSlug(in: folder)
        _ = try await server.server.push(try first.sync.changes(), user: "ann")
        _ = try await server.server.push(try second.sync.changes(), user: "ann")
        // The server moves past the contract step (its deploy: the migrations, then the new
        // version) while the second folder waits, its state holding `title`.
        try await server.execute(migrations[1].sql + "\n" + migrations[2].sql)
        let moved = try await SyncServer(database: server.database, tables: Self.tables) { _ in "ann" }
        try await first.database.write { db in try db.execute(sql: "UPDATE folders SET slug = 't' WHERE id = ?", arguments: [Self.id]) }
        _ = try await moved.push(try first.sync.changes(), user: "ann")
        let names = try await server.database.read { db in try await sql("SELECT name FROM folders ORDER BY id", as: String.self).fetchAll(db) }
        #expect(names == ["First", "Second"])
        // A device of the newest schema gets both under the new name.
        try device.sync.apply(try await moved.pull(user: "ann", after: 0).changeset)
        #expect(try await device.database.read { db in try String.fetchAll(db, sql: "SELECT name FROM folders ORDER BY id") } == names)
      }
    }
  }

  @Test(.enabled(if: TestSyncServer.isAvailable)) func aServerAtTheExpandStepSyncsTheRenamedColumnWithBothAppVersions() async throws {
    let schema = try Self.migrations(through: 2, server: true).map(\.sql).joined(separator: "\n")
    var configuration = SyncServer.Configuration()
    configuration.schema = SyncSchema(number: 2, keepsWorkingFrom: 1)
    try await TestSyncServer.run(configuration: configuration, schema: schema, tables: Self.tables) { server in
      try await withTemporaryFolder { folder in
        let old = try Device(in: folder, "old", schema: 1)
        let new = try Device(in: folder, "new", schema: 2)
        let clients = [old, new].map { device in SyncClient(replica: device.sync, server: server.url) { "user-ann" } }

        try await old.database.write { db in try db.execute(sql: "INSERT INTO folders (id, title) VALUES (?, 'Plans')", arguments: [Self.id]) }
        try await clients[0].syncRetrying()
        try await clients[1].syncRetrying()
        #expect(try new.folder("name, title") == ["Plans", "Plans"])

        try await new.database.write { db in try db.execute(sql: "UPDATE folders SET name = 'Ideas', color = 'teal' WHERE id = ?", arguments: [Self.id]) }
        try await clients[1].syncRetrying()
        try await clients[0].syncRetrying()
        #expect(try old.folder("title") == ["Ideas"])

        // Concurrent writes under the two names: the later one wins on the server and both
        // devices, whichever reaches the server first.
        try await new.database.write { db in try db.execute(sql: "UPDATE folders SET name = 'Earlier' WHERE id = ?", arguments: [Self.id]) }
        try await old.database.write { db in try db.execute(sql: "UPDATE folders SET title = 'Later' WHERE id = ?", arguments: [Self.id]) }
        try await clients[0].syncRetrying()
        try await clients[1].syncRetrying()
        try await clients[0].syncRetrying()
        #expect(try new.folder("name, title, color") == ["Later", "Later", "teal"])
        #expect(try old.folder("title") == ["Later"])
        // The server's table holds the two names in step, by its own triggers.
        let row = try await server.database.read { db in
          try await sql("SELECT name, title, color FROM folders", as: (String, String?, String?).self).fetchAll(db)
        }
        #expect(row.count == 1 && row[0].0 == "Later" && row[0].1 == "Later" && row[0].2 == "teal")
        // One column with two concurrent values, as for any column, under its current name.
        // One column with two concurrent values, as for any column: under its current name on
        // the newer version, under the name it knows on the older one.
        func concurrent(_ device: Device) throws -> [String: [StoredValue]] {
          var found: [String: [StoredValue]] = [:]
          for conflict in try device.sync.conflicts() {
            if case .concurrentWrites(let column, let values, let kept) = conflict.kind, kept == .text("Later") { found[column] = values.map(\.value) }
          }
          return found
        }
        #expect(try concurrent(new) == ["name": [.text("Earlier"), .text("Later")]])
        #expect(try concurrent(old)["title"] == [.text("Earlier"), .text("Later")])
      }
    }
  }
  #endif
}
