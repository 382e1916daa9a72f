import Foundation
import GRDB

/// Command-line options: `--rows N`, `--runs N`.
struct BenchmarkOptions {
  var rows = 100_000
  var runs = 5
  var renderIterations = 20_000
  /// The number of synthetic tables the generator benchmark reads.
  var tables = 5_000
  /// The number of rows of the rebuilt table.
  var rebuildRows = 1_000_000
  /// The rows per table of the upgrade check, and the migrations of its history.
  var upgradeRows = 10_000
  var upgradeMigrations = 50
  /// The writes per run whose live-query latency is measured.
  var liveUpdates = 200
  /// The unrelated writes made while 100 live queries are open.
  var unrelatedWrites = 1_000
  /// The commits another process makes for the cross-process latency.
  var externalCommits = 40
  /// How long 100 live queries sit idle while the process's CPU time is measured.
  var idleSeconds = 5
  /// How many times each single-row statement runs.
  var statements = 100_000
  /// How many times the page and the games list's query run.
  var pages = 10_000
  /// How many times each operation of the allocation count runs (it counts `2n` runs less `n`).
  var allocationCount = 1_000
  /// Whether an allocation count over its budget fails the run.
  var checkAllocations = false
  /// The sections to run; all of them when empty.
  var only: Set<String> = []
  /// A PostgreSQL server for the `postgres` section, which runs only with one.
  var postgres: String?

  init(_ arguments: ArraySlice<String>) {
    var arguments = arguments
    while let argument = arguments.popFirst() {
      switch argument {
      case "--rows": rows = arguments.popFirst().flatMap(Int.init) ?? rows
      case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? runs
      case "--only": only.insert(arguments.popFirst() ?? "")
      case "--tables": tables = arguments.popFirst().flatMap(Int.init) ?? tables
      case "--rebuild-rows": rebuildRows = arguments.popFirst().flatMap(Int.init) ?? rebuildRows
      case "--upgrade-rows": upgradeRows = arguments.popFirst().flatMap(Int.init) ?? upgradeRows
      case "--upgrade-migrations": upgradeMigrations = arguments.popFirst().flatMap(Int.init) ?? upgradeMigrations
      case "--live-updates": liveUpdates = arguments.popFirst().flatMap(Int.init) ?? liveUpdates
      case "--unrelated-writes": unrelatedWrites = arguments.popFirst().flatMap(Int.init) ?? unrelatedWrites
      case "--external-commits": externalCommits = arguments.popFirst().flatMap(Int.init) ?? externalCommits
      case "--idle-seconds": idleSeconds = arguments.popFirst().flatMap(Int.init) ?? idleSeconds
      case "--statements": statements = arguments.popFirst().flatMap(Int.init) ?? statements
      case "--pages": pages = arguments.popFirst().flatMap(Int.init) ?? pages
      case "--postgres": postgres = arguments.popFirst()
      case "--allocation-count": allocationCount = arguments.popFirst().flatMap(Int.init) ?? allocationCount
      case "--check-allocations": checkAllocations = true
      default:
        FileHandle.standardError.write(
          Data("usage: strata-bench [--rows N] [--runs N] [--tables N] [--rebuild-rows N] [--live-updates N] [--unrelated-writes N] [--external-commits N] [--idle-seconds N] [--statements N] [--pages N] [--upgrade-rows N] [--upgrade-migrations N] [--postgres URL] [--allocation-count N] [--check-allocations] [--only fetch|shapes|insert|render|generator|rebuild|upgrades|sync|statements|allocations|upsert|search|live|postgres]\n".utf8))
        exit(2)
      }
    }
  }

  func runs(_ section: String) -> Bool {
    only.isEmpty || only.contains(section)
  }
}

/// One benchmark: several contenders timed over the same number of runs, reported side by
/// side with ratios to a baseline.
final class Comparison {
  enum Unit {
    case milliseconds
    case microsecondsPer(Int)
  }

  let title: String
  let unit: Unit
  private var results: [(name: String, median: Duration, best: Duration)] = []

  init(title: String, unit: Unit = .milliseconds) {
    self.title = title
    self.unit = unit
  }

  /// Runs `run` once to warm up, then `runs` times; `run` times the part that counts with
  /// ``timed(_:)`` and returns it.
  func measure(_ name: String, runs: Int, _ run: () throws -> Duration) {
    var durations: [Duration] = []
    do {
      _ = try run()
      for _ in 0..<runs { durations.append(try run()) }
    } catch {
      fatalError("\(name) failed: \(error)")
    }
    durations.sort()
    results.append((name, durations[durations.count / 2], durations[0]))
  }

  /// ``measure(_:runs:_:)`` of an asynchronous run.
  func measureAsync(_ name: String, runs: Int, _ run: () async throws -> Duration) async {
    var durations: [Duration] = []
    do {
      _ = try await run()
      for _ in 0..<runs { durations.append(try await run()) }
    } catch {
      fatalError("\(name) failed: \(error)")
    }
    durations.sort()
    results.append((name, durations[durations.count / 2], durations[0]))
  }

  func report(baseline: String?, also other: String?) {
    print("## \(title)")
    let width = results.map(\.name.count).max() ?? 0
    let base = results.first { $0.name == baseline }?.median
    let otherMedian = results.first { $0.name == other }?.median
    for result in results {
      var line = result.name.padding(toLength: width, withPad: " ", startingAt: 0)
      line += "  " + format(result.median) + "  (best " + format(result.best) + ")"
      if let base { line += String(format: "  %5.2fx floor", ratio(result.median, base)) }
      if let otherMedian, let other, result.name != other {
        line += String(format: "  %5.2fx faster than %@", ratio(otherMedian, result.median), other)
      }
      print(line)
    }
    print()
  }

  private func ratio(_ a: Duration, _ b: Duration) -> Double {
    seconds(a) / seconds(b)
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private func format(_ duration: Duration) -> String {
    switch unit {
    case .milliseconds:
      return String(format: "%8.1f ms", seconds(duration) * 1000)
    case .microsecondsPer(let count):
      return String(format: "%8.2f µs/query", seconds(duration) * 1e6 / Double(count))
    }
  }
}

/// How long `body` takes.
func timed(_ body: () throws -> Void) rethrows -> Duration {
  let start = ContinuousClock.now
  try body()
  return ContinuousClock.now - start
}

/// How long `body` takes.
func timed(_ body: () async throws -> Void) async rethrows -> Duration {
  let start = ContinuousClock.now
  try await body()
  return ContinuousClock.now - start
}
