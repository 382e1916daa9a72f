import Foundation
import GRDB
import Observation
import Strata

/// Live queries: the latency from a write's commit to the new value on the main actor, for a
/// 100-row `FetchAll` next to GRDB's `ValueObservation` of the same SQL; and the queries that
/// 100 open live queries run while an unrelated table is written 1,000 times.
enum LiveQueryBenchmark {
  @MainActor
  static func run(runs: Int, updates: Int, unrelatedWrites: Int) async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-live-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let playerQueries = Counter()
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.trace { event in
        if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT"),
          statement.sql.contains(#"FROM "players""#)
        {
          playerQueries.add()
        }
      }
    }
    let (database, gameID) = try await playersDatabase(path, configuration: configuration)

    // Each phase has only its own observer, so that no delivery of the other's writes arrives
    // while one measures.
    var strataLatencies: [Duration] = []
    var grdbLatencies: [Duration] = []
    var grdbStrataLatencies: [Duration] = []
    for _ in 0..<runs {
      strataLatencies += try await liveLatencies(database, updates)

      let sql = #"SELECT "id", "gameID", "name", "score" FROM "players" ORDER BY "name""#
      grdbLatencies += try await observe(database, updates) { db in try RowPlayer.fetchAll(db, sql: sql).count }
      grdbStrataLatencies += try await observe(database, updates) { db in try Player.order(by: \.name).fetchAll(db).count }
    }
    report([
      ("Strata FetchAll", strataLatencies), ("GRDB ValueObservation, FetchableRecord", grdbLatencies),
      ("GRDB ValueObservation, Strata fetch", grdbStrataLatencies),
    ])

    let openQueries = (0..<100).map { minimum in
      FetchAll(Player.where { $0.score >= minimum }.select(\.name), database: database)
    }
    try await database.writeWithoutTransaction { _ in }
    let before = playerQueries.value
    for index in 0..<unrelatedWrites {
      try await database.write { db in try Game.find(gameID).update { $0.title = "Live \(index)" }.execute(db) }
    }
    try await Task.sleep(for: .milliseconds(200))
    let refetches = playerQueries.value - before
    try await database.write { db in try Player.where { $0.name.eq("Player 1") }.update { $0.score += 1 }.execute(db) }
    try await Task.sleep(for: .milliseconds(200))
    let afterRelatedWrite = playerQueries.value - before - refetches
    print("## 100 live queries, \(unrelatedWrites) writes to another table")
    print("player queries run: \(refetches) (one write to players afterwards: \(afterRelatedWrite))")
    print()
    withExtendedLifetime(openQueries) {}
  }

  /// A pool, as apps use, with one game and 100 players named "Player 0" to "Player 99".
  static func playersDatabase(
    _ path: String, configuration: Configuration = Configuration()
  ) async throws -> (database: any DatabaseWriter, gameID: UUID) {
    let database = try openDatabase(.file(path), pooled: true, configuration: configuration)
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations(StrataMigrations.all)
    try migrator.migrate(database)
    let gameID = UUID()
    try await database.write { db in
      try Game.insert { Game(id: gameID, title: "Live") }.execute(db)
      try Player.insert { (0..<100).map { Player.Draft(gameID: gameID, name: "Player \($0)", score: $0) } }.execute(db)
    }
    return (database, gameID)
  }

  /// The latencies of a `FetchAll` of the players, observed through the Observation framework.
  @MainActor
  private static func liveLatencies(_ database: any DatabaseWriter, _ updates: Int) async throws -> [Duration] {
    let live = FetchAll(Player.order(by: \.name), database: database)
    guard live.wrappedValue.count == 100 else { fatalError("the live query read \(live.wrappedValue.count) rows") }
    var latencies: [Duration] = []
    for index in 0..<updates {
      latencies.append(try await latency(of: database, index) { write in
        await withCheckedContinuation { continuation in
          let arrival = Arrival()
          withObservationTracking {
            _ = live.wrappedValue
          } onChange: {
            arrival.record()
            continuation.resume(returning: arrival)
          }
          write()
        }
      })
    }
    return latencies
  }

  /// The latencies of a GRDB `ValueObservation` of `fetch` (which returns the row count),
  /// delivered on the main queue.
  @MainActor
  private static func observe(
    _ database: any DatabaseWriter, _ updates: Int, _ fetch: @escaping @Sendable (Database) throws -> Int
  ) async throws -> [Duration] {
    let delivery = Delivery()
    let observation = ValueObservation.tracking(fetch)
      .start(in: database, scheduling: .async(onQueue: .main)) { error in
        fatalError("GRDB observation failed: \(error)")
      } onChange: { count in
        delivery.arrived(count)
      }
    defer { observation.cancel() }
    try await delivery.next()
    var latencies: [Duration] = []
    for index in 0..<updates {
      latencies.append(try await latency(of: database, index) { write in await delivery.arrival(after: write) })
    }
    return latencies
  }

  /// Updates a player on another thread and returns the time from the commit (the end of the
  /// write's transaction) to the arrival that `awaitArrival` reports.
  @MainActor
  private static func latency(
    of database: any DatabaseWriter, _ index: Int,
    _ awaitArrival: (_ write: @escaping @Sendable () -> Void) async -> Arrival
  ) async throws -> Duration {
    let commit = Arrival()
    let writing = WriteTask()
    let arrival = await awaitArrival {
      writing.task = Task.detached {
        try database.write { db in
          try Player.where { $0.name.eq("Player \(index % 100)") }.update { $0.score += 1 }.execute(db)
          // The clock starts as the transaction commits: the observers' work all comes after.
          commit.record()
        }
      }
    }
    try await writing.task?.value
    return arrival.time - commit.time
  }

  private static func report(_ contenders: [(name: String, samples: [Duration])]) {
    print("## write's commit to new value on the main actor, 100-row query (\(contenders[0].samples.count) writes)")
    printPercentiles(contenders, baseline: contenders[1].samples)
  }

  /// One line per contender: median and 99th percentile, and the median's ratio to the
  /// baseline's.
  static func printPercentiles(_ contenders: [(name: String, samples: [Duration])], baseline samples: [Duration]) {
    func percentile(_ samples: [Duration], _ fraction: Double) -> Duration {
      let sorted = samples.sorted()
      return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    func microseconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
    let baseline = microseconds(percentile(samples, 0.5))
    for (name, samples) in contenders {
      let median = microseconds(percentile(samples, 0.5))
      let p99 = microseconds(percentile(samples, 0.99))
      // Milliseconds for what takes that long, so the columns stay readable.
      let (unit, scale) = median >= 10_000 ? ("ms", 1e-3) : ("µs", 1.0)
      print(
        name.padding(toLength: 38, withPad: " ", startingAt: 0)
          + String(format: "  median %7.1f ", median * scale) + unit + String(format: "   p99 %7.1f ", p99 * scale) + unit
          + String(format: "   %4.2fx", median / baseline))
    }
    print()
  }
}

/// A moment recorded on one thread and read on another.
private final class Arrival: @unchecked Sendable {
  private let lock = NSLock()
  private var instant: ContinuousClock.Instant?

  func record() { lock.withLock { instant = ContinuousClock.now } }

  var time: ContinuousClock.Instant { lock.withLock { instant! } }
}

/// GRDB's deliveries, handed to whoever waits for the next one.
private final class Delivery: @unchecked Sendable {
  private let lock = NSLock()
  private var waiter: CheckedContinuation<Arrival, Never>?
  private var pending: Arrival?

  func arrived(_ count: Int) {
    guard count == 100 else { fatalError("GRDB read \(count) rows") }
    let arrival = Arrival()
    arrival.record()
    let waiter = lock.withLock {
      defer { self.waiter = nil }
      if self.waiter == nil { pending = arrival }
      return self.waiter
    }
    waiter?.resume(returning: arrival)
  }

  /// Waits for the initial value.
  func next() async throws {
    _ = await withCheckedContinuation { continuation in
      let ready = lock.withLock {
        defer { pending = nil }
        if pending == nil { waiter = continuation }
        return pending
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Runs `write` and waits for the delivery that follows it.
  func arrival(after write: @escaping @Sendable () -> Void) async -> Arrival {
    await withCheckedContinuation { continuation in
      lock.withLock {
        pending = nil
        waiter = continuation
      }
      write()
    }
  }
}

/// The write a latency measurement started.
private final class WriteTask: @unchecked Sendable {
  var task: Task<Void, any Error>?
}

/// A count incremented from database queues.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func add() { lock.withLock { count += 1 } }

  var value: Int { lock.withLock { count } }
}
