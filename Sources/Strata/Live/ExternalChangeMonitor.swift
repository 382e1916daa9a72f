import Foundation
import GRDB

/// A live query that fetches again when its database changed in a way GRDB's observation does
/// not report.
protocol ExternalChangeSubscriber: AnyObject, Sendable {
  func refresh()
}

/// Watches one database, while live queries read it, for the changes GRDB's observation does
/// not see: commits by another process or another connection to the same file, and schema
/// changes on any connection, its own included (GRDB's observation reports changes of rows
/// only).
///
/// It reads `PRAGMA data_version` and `PRAGMA schema_version` on the database's writer
/// connection, every ``ExternalChanges/checkInterval`` and on demand. The first changes when
/// another connection commits, never for the writer's own commits (which GRDB already reports);
/// the second when any connection changes the schema. When either moved since the last check,
/// every subscribed live query fetches again. One monitor serves all the live queries of a
/// database, so the cost does not grow with their number.
final class ExternalChangeMonitor: @unchecked Sendable {
  /// Keeps a live query subscribed until it is freed.
  final class Subscription: Sendable {
    private let monitor: ExternalChangeMonitor
    private let key: ObjectIdentifier

    fileprivate init(monitor: ExternalChangeMonitor, key: ObjectIdentifier) {
      self.monitor = monitor
      self.key = key
    }

    deinit { monitor.unsubscribe(key) }
  }

  private struct Version: Equatable {
    let data: Int64
    let schema: Int64
  }

  private struct WeakSubscriber {
    weak var subscriber: (any ExternalChangeSubscriber)?
  }

  // One lock for the registry and every monitor's state: it is held for a few instructions at a
  // time, a handful of times a second.
  private static let lock = NSLock()
  nonisolated(unsafe) private static var monitors: [ObjectIdentifier: ExternalChangeMonitor] = [:]
  nonisolated(unsafe) private static var interval: Duration? = .milliseconds(500)

  private let writer: any DatabaseWriter
  private let key: ObjectIdentifier
  private var subscribers: [ObjectIdentifier: WeakSubscriber] = [:]
  private var version: Version?
  private var isCheckingOnSchedule = false
  private var timer: (any DispatchSourceTimer)?

  private init(writer: any DatabaseWriter, key: ObjectIdentifier) {
    self.writer = writer
    self.key = key
  }

  /// Subscribes `subscriber` to the changes of `database`; nil for a database that never
  /// changes (a snapshot is a reader, not a writer).
  static func subscribe(_ subscriber: some ExternalChangeSubscriber, to database: any DatabaseReader) -> Subscription? {
    guard let writer = database as? any DatabaseWriter else { return nil }
    let key = ObjectIdentifier(writer)
    let monitor = lock.withLock {
      let monitor = monitors[key] ?? {
        let monitor = ExternalChangeMonitor(writer: writer, key: key)
        monitors[key] = monitor
        monitor.schedule(every: interval)
        // The first check records the version to compare with. It is queued on the writer
        // (under the lock, before any subscriber can fetch) ahead of every subscriber's first
        // fetch or, in a pool, ahead of the writer-side step that catches commits racing that
        // fetch; so nothing that commits after a first fetch goes unseen.
        monitor.check(onSchedule: false)
        return monitor
      }()
      monitor.subscribers[ObjectIdentifier(subscriber)] = WeakSubscriber(subscriber: subscriber)
      return monitor
    }
    return Subscription(monitor: monitor, key: ObjectIdentifier(subscriber))
  }

  /// Checks `database` now, if live queries read it.
  static func check(_ database: any DatabaseReader) {
    let monitor = lock.withLock { monitors[ObjectIdentifier(database as AnyObject)] }
    monitor?.check(onSchedule: false)
  }

  /// The interval of scheduled checks; nil stops them.
  static var checkInterval: Duration? {
    get { lock.withLock { interval } }
    set {
      lock.withLock {
        interval = newValue
        for monitor in monitors.values { monitor.schedule(every: newValue) }
      }
    }
  }

  /// Replaces the timer. Called with the lock held.
  private func schedule(every interval: Duration?) {
    timer?.cancel()
    timer = nil
    guard let interval else { return }
    let nanoseconds = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    // The leeway lets the system group the wake-ups with others.
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
      leeway: .nanoseconds(nanoseconds / 10))
    timer.setEventHandler { [weak self] in self?.check(onSchedule: true) }
    timer.resume()
    self.timer = timer
  }

  private func unsubscribe(_ subscriber: ObjectIdentifier) {
    Self.lock.withLock {
      subscribers[subscriber] = nil
      guard subscribers.isEmpty else { return }
      timer?.cancel()
      timer = nil
      Self.monitors[key] = nil
    }
  }

  /// Reads the versions on the writer and refreshes every subscriber if they moved.
  ///
  /// A scheduled check runs on the timer's thread, waiting for the writer there: one thread
  /// wakes, where handing the work to the writer's queue would wake two. It is skipped while
  /// another waits for the writer (a long write holds it). A check asked for is queued on the
  /// writer instead, so that it can be asked for from anywhere, a database access included.
  private func check(onSchedule: Bool) {
    guard onSchedule else {
      writer.asyncWriteWithoutTransaction { db in self.compare(db) }
      return
    }
    let isWaiting = Self.lock.withLock {
      defer { isCheckingOnSchedule = true }
      return isCheckingOnSchedule
    }
    if isWaiting { return }
    writer.writeWithoutTransaction { db in compare(db) }
    Self.lock.withLock { isCheckingOnSchedule = false }
  }

  private func compare(_ db: Database) {
    let current = try? Version(
      data: Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0,
      schema: Int64.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0)
    let changed: [any ExternalChangeSubscriber] = Self.lock.withLock {
      guard let current else { return [] }
      defer { version = current }
      guard let previous = version, previous != current else { return [] }
      return subscribers.values.compactMap(\.subscriber)
    }
    for subscriber in changed { subscriber.refresh() }
  }
}
