#if SyncServer
import Foundation
import Logging
import Strata
import StrataPostgreSQL
import StrataSchema
import StrataSync
import StrataSyncClient
import StrataSyncServer

/// Sync through the server, end to end over HTTP on loopback: how long a change on one device
/// takes to reach another device's live query while both run their clients, and how many
/// pushes the server merges a second when many devices push at once. The server, PostgreSQL
/// and the devices share the machine.
enum SyncServerBenchmark {
  static func run(postgres url: String, changes: Int) async throws {
    guard var components = URLComponents(string: url) else { return }
    let name = "strata_bench_sync_\(ProcessInfo.processInfo.processIdentifier)"
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url)) { admin in
      try await admin.withConnection { db in
        try await sql("DROP DATABASE IF EXISTS \(quote: name)").execute(db)
        try await sql("CREATE DATABASE \(quote: name)").execute(db)
      }
    }
    defer {
      Task.detached {
        try? await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url)) { admin in
          try await admin.withConnection { db in try await sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)").execute(db) }
        }
      }
    }
    components.path = "/" + name
    var configuration = try PostgresClient.Configuration(url: components.string ?? url)
    configuration.options.maximumConnections = 16
    try await PostgreSQLDatabase.withDatabase(configuration) { database in
      let schema = DatabaseDialect.postgresql.sql(try Generator(sources: [("Models.swift", SyncBenchmark.models)]).models(for: .postgresql).schema)
      _ = try await database.migrate([StrataCore.Migration(name: "0001_notes", sql: schema)])
      let server = try await SyncServer(database: database, tables: SyncBenchmark.tables) { token in token }
      let (ports, port) = AsyncStream<Int>.makeStream()
      try await withThrowingTaskGroup(of: Void.self) { group in
        var logger = Logger(label: "strata-bench.sync-server")
        // Stopping the server at the end is not an error to report.
        logger.logLevel = .critical
        group.addTask { [logger] in try await server.serve(port: 0, logger: logger) { port.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let number = await iterator.next() else { return }
        defer { group.cancelAll() }
        let address = URL(string: "http://127.0.0.1:\(number)/")!
        print("sync server: HTTP on loopback, PostgreSQL, \(changes) changes")
        try await latency(address, changes: changes)
        for pushers in [1, 4, 16] { try await throughput(address, pushers: pushers, pushes: max(changes / pushers, 10), rows: 1) }
        try await throughput(address, pushers: 4, pushes: 10, rows: 100)
        for (pushers, rows) in [(1, 1), (4, 1), (4, 100)] {
          try await merges(server, pushers: pushers, pushes: rows == 1 ? max(changes / pushers, 10) : 10, rows: rows)
        }
      }
    }
  }

  /// A row updated on one device, seen by another device's live query: each change waits until
  /// it is seen before the next.
  static func latency(_ server: URL, changes: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-sync-server-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (phone, phoneReplica) = try SyncBenchmark.replica(in: directory, "phone")
    let (laptop, laptopReplica) = try SyncBenchmark.replica(in: directory, "laptop")
    let phoneClient = SyncClient(replica: phoneReplica, server: server) { "latency" }
    let laptopClient = SyncClient(replica: laptopReplica, server: server) { "latency" }
    let key = UUID().uuidString.lowercased()
    try await phone.write { db in try db.execute(sql: "INSERT INTO notes (id, title, body, score) VALUES (?, 'note', '', -1)", arguments: [key]) }
    try await phoneClient.sync()
    try await laptopClient.sync()
    let running = Task { await laptopClient.run() }
    defer { running.cancel() }
    let seen = AsyncStream<(Int, ContinuousClock.Instant)>.makeStream()
    let observing = Task {
      for try await score in ValueObservation.tracking({ db in try Int.fetchOne(db, sql: "SELECT score FROM notes") ?? -1 }).values(in: laptop) {
        seen.continuation.yield((score, .now))
      }
    }
    defer { observing.cancel() }
    var arrivals = seen.stream.makeAsyncIterator()
    var samples: [Duration] = []
    for change in 0..<changes {
      let written = ContinuousClock.now
      try await phone.write { db in try db.execute(sql: "UPDATE notes SET score = ?", arguments: [change]) }
      try await phoneClient.push()
      while let (score, at) = await arrivals.next() {
        if score == change {
          samples.append(at - written)
          break
        }
      }
    }
    LiveQueryBenchmark.printPercentiles([("write to another device's live query", samples)], baseline: samples)
  }

  /// The server's merges alone, without HTTP or devices: changesets made beforehand on
  /// `pushers` replicas, handed to ``SyncServer/push(_:user:)`` at the same time.
  static func merges(_ server: SyncServer, pushers: Int, pushes: Int, rows: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-sync-server-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var queues: [[Changeset]] = []
    for index in 0..<pushers {
      let (database, replica) = try SyncBenchmark.replica(in: directory, "device\(index)")
      try await database.write { db in
        for _ in 0..<rows {
          try db.execute(sql: "INSERT INTO notes (id, title, body, score) VALUES (?, 'note', '', 0)", arguments: [UUID().uuidString.lowercased()])
        }
      }
      var cursor = SyncCursor.start
      var queue = [try replica.changes(since: cursor)]
      cursor = queue[0].cursor
      for _ in 0..<pushes {
        try await database.write { db in try db.execute(sql: "UPDATE notes SET score = score + 1") }
        let changeset = try replica.changes(since: cursor)
        cursor = changeset.cursor
        queue.append(changeset)
      }
      _ = try await server.push(queue.removeFirst(), user: "merges\(index)")
      queues.append(queue)
    }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, queue) in queues.enumerated() {
        group.addTask {
          for changeset in queue { _ = try await server.push(changeset, user: "merges\(index)") }
        }
      }
      try await group.waitForAll()
    }
    report("server alone, \(pushers) pushing \(rows)-row changesets:", pushes: pushers * pushes, rows: rows, since: start)
  }

  /// One line: pushes and rows merged a second since `start`.
  private static func report(_ label: String, pushes: Int, rows: Int, since start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
      label.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%7.0f pushes/s  %8.0f rows merged/s", Double(pushes) / seconds, Double(pushes * rows) / seconds))
  }

  /// `pushers` devices, each with rows of its own, pushing `pushes` changesets of `rows`
  /// updated rows at the same time.
  static func throughput(_ server: URL, pushers: Int, pushes: Int, rows: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-sync-server-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var devices: [(any DatabaseWriter, SyncClient)] = []
    for index in 0..<pushers {
      let (database, replica) = try SyncBenchmark.replica(in: directory, "device\(index)")
      let client = SyncClient(replica: replica, server: server) { "user\(index)" }
      try await database.write { db in
        for _ in 0..<rows {
          try db.execute(sql: "INSERT INTO notes (id, title, body, score) VALUES (?, 'note', '', 0)", arguments: [UUID().uuidString.lowercased()])
        }
      }
      try await client.push()
      devices.append((database, client))
    }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (database, client) in devices {
        group.addTask {
          for _ in 0..<pushes {
            try await database.write { db in try db.execute(sql: "UPDATE notes SET score = score + 1") }
            try await client.push()
          }
        }
      }
      try await group.waitForAll()
    }
    report("\(pushers) devices pushing \(rows)-row changesets:", pushes: pushers * pushes, rows: rows, since: start)
  }
}
#endif
