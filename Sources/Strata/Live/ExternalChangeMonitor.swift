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
///
/// A database in a file is also watched for changes on disk (``DatabaseFileWatcher``): a commit
/// by another process writes the file or its WAL, and the check runs at once, so the change
/// shows in milliseconds; the scheduled check stays as the fallback for what is not notified.
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
  nonisolated(unsafe) private static var watching = true

  private let writer: any DatabaseWriter
  private let key: ObjectIdentifier
  private var subscribers: [ObjectIdentifier: WeakSubscriber] = [:]
  private var version: Version?
  private var isCheckingOnSchedule = false
  private var timer: (any DispatchSourceTimer)?
  private var watcher: DatabaseFileWatcher?
  /// Whether a check the watcher asked for is queued on the writer and not yet run: a burst of
  /// file events asks for one check.
  private var isCheckQueued = false
  /// Whether checks after a short wait are scheduled (see ``checkSoon()``).
  private var areFollowUpsScheduled = false

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
        monitor.watch(watching)
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

  /// Whether the files of databases with live queries are watched for changes.
  static var watchesFiles: Bool {
    get { lock.withLock { watching } }
    set {
      lock.withLock {
        watching = newValue
        for monitor in monitors.values { monitor.watch(newValue) }
      }
    }
  }

  /// Starts or stops watching the database's files. Called with the lock held.
  private func watch(_ isOn: Bool) {
    watcher?.cancel()
    watcher = isOn
      ? DatabaseFileWatcher(path: writer.path, queue: .global(qos: .userInitiated)) { [weak self] in self?.checkSoon() } : nil
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
      watcher?.cancel()
      watcher = nil
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
    writer.writeWithoutTransaction { db in _ = compare(db) }
    Self.lock.withLock { isCheckingOnSchedule = false }
  }

  /// Queues a check on the writer, for a change of the database's files, unless one is queued
  /// already.
  ///
  /// A file event comes with the write of the log, which is a moment before the commit is
  /// published (in WAL mode, in the shared-memory index, whose writes are not file events): a
  /// check that finds nothing new is followed by a few more, a few milliseconds apart, so that
  /// the commit shows then rather than at the next scheduled check.
  private func checkSoon() {
    let isQueued = Self.lock.withLock {
      defer { isCheckQueued = true }
      return isCheckQueued
    }
    if isQueued { return }
    writer.asyncWriteWithoutTransaction { db in
      Self.lock.withLock { self.isCheckQueued = false }
      guard !self.compare(db) else { return }
      let scheduled = Self.lock.withLock {
        defer { self.areFollowUpsScheduled = true }
        return self.areFollowUpsScheduled
      }
      if scheduled { return }
      // The later ones for a loaded machine, where the writer may be held up between the two.
      let delays = [2, 10, 50, 250, 1_000]
      for (index, delay) in delays.enumerated() {
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + .milliseconds(delay)) { [weak self] in
          guard let self else { return }
          if index == delays.count - 1 { Self.lock.withLock { self.areFollowUpsScheduled = false } }
          self.check(onSchedule: false)
        }
      }
    }
  }

  /// Refreshes the subscribers when the versions moved since the last check; whether they did.
  @discardableResult
  private func compare(_ db: Database) -> Bool {
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
    return !changed.isEmpty
  }
}
