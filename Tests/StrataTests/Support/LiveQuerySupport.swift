import Foundation
import Strata
import Testing

/// Waits until `condition` holds, checking between suspensions, for at most `seconds`.
@MainActor
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline { return false }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}

/// Gives pending deliveries a chance to arrive, for checks that nothing happens.
@MainActor
func settle() async {
  for _ in 0..<20 { try? await Task.sleep(for: .milliseconds(5)) }
}

/// The SQL statements a database runs, for counting queries.
final class StatementLog: @unchecked Sendable {
  private let lock = NSLock()
  private var statements: [String] = []

  var configuration: Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.trace { event in
        if case .statement(let statement) = event { self.append(statement.sql) }
      }
    }
    return configuration
  }

  private func append(_ sql: String) { lock.withLock { statements.append(sql) } }

  /// How many statements so far contain `fragment`.
  func count(_ fragment: String) -> Int {
    lock.withLock { statements.filter { $0.contains(fragment) }.count }
  }

  var all: [String] { lock.withLock { statements } }

  /// The statements from index `start` on, grouped by transaction: each group runs from a
  /// `BEGIN` or `SAVEPOINT` to its `COMMIT` or `RELEASE`.
  func transactions(from start: Int) -> [[String]] {
    var groups: [[String]] = []
    var current: [String]?
    for sql in all.dropFirst(start) {
      if current == nil, sql.hasPrefix("BEGIN") || sql.hasPrefix("SAVEPOINT") {
        current = []
      } else if current != nil, sql.hasPrefix("COMMIT") || sql.hasPrefix("RELEASE") || sql.hasPrefix("ROLLBACK") {
        groups.append(current!)
        current = nil
      } else {
        current?.append(sql)
      }
    }
    return groups
  }
}

/// Whether a callback ran on the main queue, the main actor's. (On Linux the main queue may be
/// served by a thread other than the process's first, so `Thread.isMainThread` cannot tell.)
final class MainThreadCheck: @unchecked Sendable {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  private let lock = NSLock()
  private var onMain: Bool?

  init() { _ = Self.key }

  func record() { lock.withLock { onMain = DispatchQueue.getSpecific(key: Self.key) == true } }

  var value: Bool? { lock.withLock { onMain } }
}
