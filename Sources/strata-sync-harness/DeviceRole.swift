// `strata-sync-harness device`: one device of one user, as a process the harness kills and
// starts again. It writes at random (folders and notes: inserts, updates of every merge rule,
// counter increments, unique slugs, deletes), syncs through the harness's proxy, goes offline
// now and then, and shares and accepts records. It runs the app's migrations through the one
// the harness gives it: devices of the first schema write `title`, those of later ones `name`
// and `color`, and a device the server no longer syncs with (an app too old) goes on writing.
// Every write is recorded with its stamp in the transaction that makes it, and every push the
// server confirmed as an acknowledgement, so the history is exactly what the database holds,
// whenever the process dies.
import Foundation
import GRDB
import Strata
import StrataSQL
import StrataSync
import StrataSyncClient

struct DeviceOptions {
  var database = ""
  var server = URL(string: "http://127.0.0.1:1/")!
  var user = ""
  /// The user this user's first device shares a folder with.
  var partner: String?
  var isFirstDevice = false
  var skewMilliseconds: Int64 = 0
  var seed: UInt64 = 1
  /// How many of the app's migrations the device has run: its app version.
  var schema = StrataMigrations.all.count
}

enum DeviceRole {
  static func run(_ options: DeviceOptions) async throws {
    ClockSkew.install(milliseconds: options.skewMilliseconds)
    let database = try openDatabase(.file(options.database))
    try database.migrate(Array(StrataMigrations.all.prefix(options.schema)))
    let device = try Device(database: database, options: options)
    try await device.loop()
  }

  /// Updates the app on the device at `path` (every migration) and syncs it until a round
  /// finds nothing to push or pull: the heal after the faults. Returns when it got through,
  /// with every write the device recorded confirmed by the server.
  static func heal(database path: String, server: URL, user: String) async throws {
    let database = try openDatabase(.file(path))
    try database.migrate(StrataMigrations.all)
    let client = SyncClient(replica: try SyncReplica(database, tables: StrataSyncedTables.all), server: server) { "user-\(user)" }
    let last = try await database.read { db in try Int.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM deviceWrites") ?? 0 }
    try await client.sync()
    try await database.write { db in try db.execute(sql: "INSERT INTO deviceAcks (lastWrite) VALUES (?)", arguments: [last]) }
  }
}

/// A device at work.
final class Device: @unchecked Sendable {
  let database: any DatabaseWriter
  let client: SyncClient
  let options: DeviceOptions
  var random: SeededRandom
  private var offlineUntil = Date.distantPast
  /// The folder's title column in this device's schema: renamed `name` by the second.
  private let title: String
  private var toldToUpdate = false

  init(database: any DatabaseWriter, options: DeviceOptions) throws {
    self.database = database
    self.options = options
    title = options.schema >= 2 ? "name" : "title"
    // Each start of each device draws differently (seeds one apart must not give one sequence).
    random = SeededRandom(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(getpid()) &* 0xBF58_476D_1CE4_E5B9)
    var configuration = SyncClient.Configuration()
    configuration.pushRows = 100
    let user = options.user
    client = SyncClient(replica: try SyncReplica(database, tables: StrataSyncedTables.all), server: options.server, configuration: configuration) {
      "user-\(user)"
    }
  }

  func loop() async throws {
    var round = 0
    while true {
      round += 1
      for _ in 0..<random.int(1...3) { try write() }
      if Date() >= offlineUntil {
        if random.chance(0.03) {
          offlineUntil = Date().addingTimeInterval(Double(random.int(1...4)))
          continue
        }
        await sync()
        if round % 15 == 0 { await share() }
      }
      try await Task.sleep(for: .milliseconds(random.int(200...1000)))
    }
  }

  /// One round; on success, every write recorded before it is acknowledged.
  private func sync() async {
    do {
      let last = try await database.read { db in try Int.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM deviceWrites") ?? 0 }
      try await client.sync()
      try await database.write { db in try db.execute(sql: "INSERT INTO deviceAcks (lastWrite) VALUES (?)", arguments: [last]) }
    } catch {
      // Faults are the point here: the next round tries again. An app the server no longer
      // syncs with says so once (the harness counts it) and keeps its writes.
      if !toldToUpdate, "\(error)".contains("update the app") {
        toldToUpdate = true
        // Written at once: the harness kills devices, and buffered output would die with them.
        FileHandle.standardOutput.write(Data("refused: \(error)\n".utf8))
      }
    }
  }

  /// The first device shares a folder of its user's with the partner; every device accepts
  /// what is offered to its user.
  private func share() async {
    do {
      if options.isFirstDevice, let partner = options.partner {
        let list = try await client.shares()
        if !list.given.contains(where: { $0.user == partner }) {
          let folder = try await database.read { db in try String.fetchOne(db, sql: "SELECT id FROM folders ORDER BY id LIMIT 1") }
          if let folder, let key = UUID(uuidString: folder) {
            try await client.share(table: "folders", key: key, with: partner, access: .write)
          }
        }
      }
      for offered in try await client.shares().received where !offered.accepted {
        if let key = UUID(uuidString: offered.key) { try await client.accept(table: offered.table, key: key) }
      }
    } catch {
      // A share waits for a round that gets through, or for the folder to be pushed.
    }
  }

  // MARK: Writes

  private func write() throws {
    let choice = random.int(0..<100)
    do {
      try database.write { db in
        let folders = try String.fetchAll(db, sql: "SELECT id FROM folders ORDER BY id")
        let notes = try String.fetchAll(db, sql: "SELECT id FROM notes ORDER BY id")
        switch choice {
        case 0..<12 where folders.count < 40, _ where folders.isEmpty:
          try insertFolder(db)
        case 17..<20 where options.schema >= 2:
          try update(db, "folders", random.pick(folders), column: "color", to: random.chance(0.2) ? nil : "color \(random.int(0..<50))")
        case 12..<20:
          try update(db, "folders", random.pick(folders), column: title, to: "title \(random.int(0..<1000))")
        case 20..<26:
          try update(db, "folders", random.pick(folders), column: "slug", to: random.chance(0.2) ? nil : "slug-\(random.int(0..<60))")
        case 26..<32:
          try update(db, "folders", random.pick(folders), column: "rank", to: random.int(0..<1000))
        case 32..<44:
          try add(db, to: random.pick(folders), random.int(1...5))
        case 44..<50:
          try update(db, "folders", random.pick(folders), column: "labels", to: "[\"l\(random.int(0..<20))\",\"l\(random.int(0..<20))\"]")
        case 50..<55:
          try update(db, "folders", random.pick(folders), column: "summary", to: "s\(random.int(0..<500))")
        case 55..<57:
          try delete(db, "folders", random.pick(folders))
        case 57..<75 where notes.count < 200, _ where notes.isEmpty:
          try insertNote(db, in: random.pick(folders))
        case 75..<88:
          try update(db, "notes", random.pick(notes), column: "text", to: "text \(random.int(0..<1000))")
        case 88..<96:
          try update(db, "notes", random.pick(notes), column: "position", to: random.int(0..<100))
        default:
          try delete(db, "notes", random.pick(notes))
        }
      }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      // A slug another folder here holds: the app would say so; nothing was written.
    }
  }

  private func insertFolder(_ db: Database) throws {
    let id = UUID().uuidString.lowercased()
    let slug: String? = random.chance(0.5) ? nil : "slug-\(random.int(0..<60))"
    var values: [String: (any DatabaseValueConvertible)?] = [
      title: "title \(random.int(0..<1000))", "slug": slug, "rank": random.int(0..<1000), "visits": random.int(0...3),
      "labels": "[\"l\(random.int(0..<20))\"]", "summary": "s\(random.int(0..<500))",
    ]
    if options.schema >= 2 { values["color"] = "color \(random.int(0..<50))" }
    let columns = values.keys.sorted()
    try db.execute(
      sql: "INSERT INTO folders (id, \(columns.map(SQLQuoting.identifier).joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: columns.count)))",
      arguments: StatementArguments([id] + columns.map { values[$0]! }))
    try recordInsert(db, "folders", id, columns: columns)
  }

  private func insertNote(_ db: Database, in folder: String) throws {
    let id = UUID().uuidString.lowercased()
    try db.execute(
      sql: "INSERT INTO notes (id, folderID, text, position) VALUES (?, ?, ?, ?)",
      arguments: [id, folder, "text \(random.int(0..<1000))", random.int(0..<100)])
    try recordInsert(db, "notes", id, columns: ["folderID", "text", "position"])
  }

  /// Records an insert: the row's life stamp, and each column's first value under it.
  private func recordInsert(_ db: Database, _ table: String, _ key: String, columns: [String]) throws {
    guard let life = try Row.fetchOne(db, sql: "SELECT clock, replica FROM strata_sync_rows WHERE table_name = ? AND row_key = ?", arguments: [table, key])
    else { throw HarnessError("the insert into \(table) recorded no stamp") }
    try record(db, "insert", table, key, column: nil, value: nil, clock: life["clock"], replica: life["replica"])
    for column in columns {
      let value = try String.fetchOne(db, sql: "SELECT CAST(\(SQLQuoting.identifier(column)) AS TEXT) FROM \(SQLQuoting.identifier(table)) WHERE id = ?", arguments: [key])
      try record(db, "insert", table, key, column: column, value: value, clock: life["clock"], replica: life["replica"])
    }
  }

  private func update(_ db: Database, _ table: String, _ key: String, column: String, to value: (any DatabaseValueConvertible)?) throws {
    let before = try String.fetchOne(db, sql: "SELECT CAST(\(SQLQuoting.identifier(column)) AS TEXT) FROM \(SQLQuoting.identifier(table)) WHERE id = ?", arguments: [key])
    try db.execute(sql: "UPDATE \(SQLQuoting.identifier(table)) SET \(SQLQuoting.identifier(column)) = ? WHERE id = ?", arguments: [value, key])
    let after = try String.fetchOne(db, sql: "SELECT CAST(\(SQLQuoting.identifier(column)) AS TEXT) FROM \(SQLQuoting.identifier(table)) WHERE id = ?", arguments: [key])
    // Writing the value a column holds changes nothing the triggers see.
    guard after != before,
      let cell = try Row.fetchOne(
        db, sql: "SELECT clock, replica FROM strata_sync_cells WHERE table_name = ? AND row_key = ? AND column_name = ?", arguments: [table, key, column])
    else { return }
    try record(db, "update", table, key, column: column, value: after, clock: cell["clock"], replica: cell["replica"])
  }

  private func add(_ db: Database, to folder: String, _ amount: Int) throws {
    try db.execute(sql: "UPDATE folders SET visits = visits + ? WHERE id = ?", arguments: [amount, folder])
    try record(db, "add", "folders", folder, column: "visits", value: String(amount), clock: 0, replica: "")
  }

  private func delete(_ db: Database, _ table: String, _ key: String) throws {
    try db.execute(sql: "DELETE FROM \(SQLQuoting.identifier(table)) WHERE id = ?", arguments: [key])
    guard let life = try Row.fetchOne(db, sql: "SELECT clock, replica FROM strata_sync_rows WHERE table_name = ? AND row_key = ?", arguments: [table, key])
    else { throw HarnessError("the delete from \(table) recorded no stamp") }
    try record(db, "delete", table, key, column: nil, value: nil, clock: life["clock"], replica: life["replica"])
  }

  private func record(_ db: Database, _ operation: String, _ table: String, _ key: String, column: String?, value: String?, clock: Int64, replica: String) throws {
    try db.execute(
      sql: "INSERT INTO deviceWrites (operation, tableName, rowKey, columnName, value, clock, replica) VALUES (?, ?, ?, ?, ?, ?, ?)",
      arguments: [operation, table, key, column, value, clock, replica])
  }
}

/// A small seeded generator (SplitMix64), so that a run's choices can be told by its seed.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
  mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}
