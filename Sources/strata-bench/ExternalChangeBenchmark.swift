import Foundation
import GRDB
import Observation
import Strata
import StrataSchema

/// Changes from another process: the time from a commit in another process to the new value on
/// the main actor, and what the checks that find such commits cost while 100 live queries sit
/// idle.
enum ExternalChangeBenchmark {
  @MainActor
  static func run(commits: Int, idleSeconds: Int) async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-external-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let (database, _) = try await LiveQueryBenchmark.playersDatabase(path)
    let interval = ExternalChanges.checkInterval ?? .zero

    let latencies = try await crossProcessLatencies(database, path: path, commits: commits)
    print("## commit in another process to new value on the main actor (\(latencies.count) commits, checks every \(interval))")
    LiveQueryBenchmark.printPercentiles([("Strata FetchOne", latencies)], baseline: latencies)

    let openQueries = (0..<100).map { minimum in
      FetchAll(Player.where { $0.score >= minimum }.select(\.name), database: database)
    }
    // The queries' first fetches finish (a pool's on the writer too) before the clocks start.
    try await database.writeWithoutTransaction { _ in }
    try await Task.sleep(for: .milliseconds(500))
    // Idle CPU time moves by tens of microseconds a second, so each setting is measured three
    // times, alternately, and the medians compared.
    var checking: [Double] = []
    var notChecking: [Double] = []
    for _ in 0..<3 {
      checking.append(try await cpuTimePerSecond(idle: idleSeconds))
      ExternalChanges.checkInterval = nil
      notChecking.append(try await cpuTimePerSecond(idle: idleSeconds))
      ExternalChanges.checkInterval = interval
    }
    // One check's own work, from 2,000 in a row.
    let checks = 2_000
    let start = cpuTime()
    for _ in 0..<checks { ExternalChanges.check(database) }
    try await database.writeWithoutTransaction { _ in }
    let perCheck = (cpuTime() - start) / Double(checks)
    withExtendedLifetime(openQueries) {}
    print("## 100 idle live queries: the process's CPU time per second (median of 3 × \(idleSeconds) s)")
    func line(_ name: String, _ microseconds: Double, _ unit: String) {
      print(name.padding(toLength: 38, withPad: " ", startingAt: 0) + String(format: "  %7.1f ", microseconds) + unit)
    }
    line("checks every \(interval)", checking.sorted()[1], "µs/s")
    line("no checks", notChecking.sorted()[1], "µs/s")
    line("one check, back to back", perCheck, "µs")
    print()
  }

  /// Runs `strata-bench external-writer` and measures, for each of its commits, the time until
  /// a live query of the score it sets has announced the new value on the main actor.
  @MainActor
  private static func crossProcessLatencies(_ database: any DatabaseWriter, path: String, commits: Int) async throws -> [Duration] {
    let score = FetchOne(Player.where { $0.name.eq("Player 0") }.select(\.score), database: database)
    let arrivals = Arrivals()
    arrivals.follow { score.wrappedValue ?? 0 }

    guard let executable = Bundle.main.executableURL else { fatalError("cannot find strata-bench's own executable") }
    // Commits further apart than the checks, so that each one is seen on its own.
    let pause = Int((ExternalChanges.checkInterval ?? .milliseconds(500)) / .milliseconds(1)) + 200
    let writer = try ChildProcess.start([executable.path, "external-writer", path, "\(commits)", "\(pause)"])
    let result = try await writer.finish(timeout: 300)
    guard result.status == 0 else { fatalError("external-writer failed with status \(result.status): \(result.errors)") }
    // The last commit's value may still be on its way.
    for _ in 0..<400 where arrivals.time(of: commits) == nil { try await Task.sleep(for: .milliseconds(5)) }

    var latencies: [Duration] = []
    for line in result.output.split(separator: "\n") {
      let fields = line.split(separator: " ").compactMap { UInt64($0) }
      guard fields.count == 2, let arrival = arrivals.time(of: Int(fields[0])) else { continue }
      latencies.append(.nanoseconds(Int64(arrival) - Int64(fields[1])))
    }
    guard latencies.count >= commits / 2 else { fatalError("only \(latencies.count) of \(commits) commits arrived") }
    return latencies
  }

  /// The process's CPU time (user and system) per second of wall time while it sleeps.
  @MainActor
  private static func cpuTimePerSecond(idle seconds: Int) async throws -> Double {
    let start = cpuTime()
    try await Task.sleep(for: .seconds(seconds))
    return (cpuTime() - start) / Double(seconds)
  }

  /// The process's CPU time so far in microseconds: the scheduler's own count, to the
  /// nanosecond (`getrusage` may count in clock ticks).
  private static func cpuTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
  }
}

/// When each value of a live query was announced on the main actor, by the `DispatchTime`
/// clock that the writing process also uses.
@MainActor
private final class Arrivals {
  private var times: [Int: UInt64] = [:]

  func follow(_ read: @escaping @MainActor () -> Int) {
    let value = withObservationTracking { read() } onChange: {
      DispatchQueue.main.async { MainActor.assumeIsolated { self.follow(read) } }
    }
    if times[value] == nil { times[value] = DispatchTime.now().uptimeNanoseconds }
  }

  func time(of value: Int) -> UInt64? { times[value] }
}
