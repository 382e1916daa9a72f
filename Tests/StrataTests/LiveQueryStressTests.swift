import Foundation
import Observation
import Strata
import Testing

/// Many rounds of writes, loads and writes racing loads, against several live queries on one
/// table, while other threads keep every core busy: each live query, and code that tracks it
/// with Observation as the README shows, ends every round on the database's values.
///
/// `STRESS_ROUNDS=1500 swift test --filter LiveQueryStressTests` runs longer.
@MainActor @Suite(.serialized) struct LiveQueryStressTests {
  static let rounds = Int(ProcessInfo.processInfo.environment["STRESS_ROUNDS"] ?? "") ?? 120

  @Test(arguments: [FetchDelivery.mainActor, .immediately], [false, true])
  func noLiveQueryMissesAChange(delivery: FetchDelivery, pooled: Bool) async throws {
    let directory = try TemporaryDirectory()
    let database = try organizationDatabase(.file(directory.path("db.sqlite")), pooled: pooled)
    let load = CPULoad()
    defer { load.stop() }

    var minimumSalary: Int64 = 0
    var factsMinimumSalary: Int64 = 0
    let names = FetchAll(Employee.where { $0.salary >= minimumSalary }.order(by: \.name).select(\.name), database: database, delivery: delivery)
    let ids = FetchAll(Employee.order(by: \.id).select(\.id), database: database, delivery: delivery)
    let count = FetchOne(wrappedValue: 0, Employee.count(), database: database, delivery: delivery)
    let payroll = FetchOne(wrappedValue: 0, Employee.select { $0.salary.sum() ?? 0 }, database: database, delivery: delivery)
    let facts = Fetch(wrappedValue: OrganizationFacts.Value(), OrganizationFacts(minimumSalary: 0), database: database, delivery: delivery)
    let trackers = [
      Tracker(delivery) { names.wrappedValue.joined(separator: ",") },
      Tracker(delivery) { "\(count.wrappedValue)" },
      Tracker(delivery) { "\(payroll.wrappedValue)" },
      Tracker(delivery) { facts.wrappedValue.wellPaid.joined(separator: ",") },
    ]

    var random = SplitMix(seed: pooled ? 2 : 1)
    for round in 0..<Self.rounds {
      switch round % 3 {
      case 0:
        try await Self.change(database, &random)
      case 1:
        minimumSalary = Int64(random.next(upTo: 40)) * 10_000
        try await names.load(Employee.where { $0.salary >= minimumSalary }.order(by: \.name).select(\.name))
        // `load` returns once the new query's rows are the value: nothing wrote in between.
        #expect(names.wrappedValue == (try await Self.names(database, minimumSalary)), "round \(round)")
        factsMinimumSalary = minimumSalary
        try await facts.load(OrganizationFacts(minimumSalary: factsMinimumSalary))
      default:
        minimumSalary = Int64(random.next(upTo: 40)) * 10_000
        var writer = random
        _ = random.next(upTo: 1)
        async let write: Void = Self.change(database, &writer)
        try await names.load(Employee.where { $0.salary >= minimumSalary }.order(by: \.name).select(\.name))
        try await write
      }

      let expected = try await database.read { [minimumSalary, factsMinimumSalary] db in
        (
          names: try Self.names(db, minimumSalary),
          ids: try Employee.order(by: \.id).select(\.id).fetchAll(db),
          count: try Employee.fetchCount(db),
          payroll: try Employee.select { $0.salary.sum() ?? 0 }.fetchOne(db) ?? 0,
          facts: try OrganizationFacts(minimumSalary: factsMinimumSalary).fetch(db)
        )
      }
      let caughtUp = await eventually {
        names.wrappedValue == expected.names && ids.wrappedValue == expected.ids
          && count.wrappedValue == expected.count && payroll.wrappedValue == expected.payroll
          && facts.wrappedValue.wellPaid == expected.facts.wellPaid
          && facts.wrappedValue.commentCount == expected.facts.commentCount
          && trackers[0].last == expected.names.joined(separator: ",")
          && trackers[1].last == "\(expected.count)" && trackers[2].last == "\(expected.payroll)"
          && trackers[3].last == expected.facts.wellPaid.joined(separator: ",")
      }
      #expect(caughtUp, "round \(round): \(names.wrappedValue) \(count.wrappedValue) \(payroll.wrappedValue); trackers \(trackers.map(\.last))")
      if !caughtUp { return }
    }
    #expect(names.loadError == nil && count.loadError == nil && facts.loadError == nil)
  }

  /// Inserts, updates or deletes an employee, from another task.
  static func change(_ database: any DatabaseWriter, _ random: inout SplitMix) async throws {
    let choice = random.next(upTo: 3)
    let salary = Int64(random.next(upTo: 40)) * 10_000
    let name = "E\(random.next(upTo: 1_000_000))"
    try await Task.detached {
      try await database.write { db in
        let ids = try Employee.order(by: \.id).select(\.id).fetchAll(db)
        switch choice {
        case 0 where ids.count > 2:
          try Employee.find(ids[ids.count / 2]).delete().execute(db)
        case 1 where !ids.isEmpty:
          try Employee.find(ids[0]).update { $0.salary = salary }.execute(db)
        default:
          try Employee.insert { Employee.Draft(name: name, salary: salary) }.execute(db)
        }
      }
    }.value
  }

  static func names(_ database: any DatabaseWriter, _ minimumSalary: Int64) async throws -> [String] {
    try await database.read { db in try names(db, minimumSalary) }
  }

  nonisolated static func names(_ db: Database, _ minimumSalary: Int64) throws -> [String] {
    try Employee.where { $0.salary >= minimumSalary }.order(by: \.name).select(\.name).fetchAll(db)
  }
}

/// Code that follows a live query with `withObservationTracking`, as the README shows for each
/// delivery: on the main actor, it registers again from the main queue; with `.immediately`, it
/// registers again inside `onChange`, which runs on the database's queue after the new value is
/// stored.
final class Tracker: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String] = []
  private let read: @Sendable () -> String
  private let delivery: FetchDelivery

  init(_ delivery: FetchDelivery, _ read: @escaping @Sendable () -> String) {
    self.read = read
    self.delivery = delivery
    track()
  }

  /// The value read after the last change announced.
  var last: String? { lock.withLock { values.last } }

  private func track() {
    let value = withObservationTracking { read() } onChange: { [weak self] in
      guard let self else { return }
      if delivery == .mainActor {
        DispatchQueue.main.async { self.track() }
      } else {
        track()
      }
    }
    lock.withLock { values.append(value) }
  }
}

/// Threads that keep every core busy until stopped, at the lowest priority: they take what no
/// other thread wants, so a thread of the test woken by a write finds its core busy, while the
/// rest of the suite, run beside this test, loses no time to them. (At the normal priority, in a
/// full run where the test waited its turn for the shared threads for two minutes, they took a
/// third of the machine for all that time.) In a full run the other tests are the load.
final class CPULoad: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false

  init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    for _ in 0..<threads {
      Thread.detachNewThread {
        #if os(Linux)
        // Linux gives each thread its own niceness; elsewhere this would lower the whole process.
        _ = nice(19)
        #endif
        var x: UInt64 = 1
        while !self.isStopped {
          for _ in 0..<100_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
        }
        if x == 0 { print(x) }
      }
    }
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  func stop() { lock.withLock { stopped = true } }
}

/// A small deterministic random number generator, so that a failing round can be replayed.
struct SplitMix {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(upTo bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound + 1))
  }
}

/// A folder in the temporary directory, removed when the value is freed.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}
