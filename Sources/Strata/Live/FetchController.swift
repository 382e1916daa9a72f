import Foundation
import GRDB
import Observation

/// The state behind a live query: its value, loading state and error, and the GRDB
/// observation that keeps the value current.
///
/// Reads of the state register with the Observation framework, so an `@Observable` model or a
/// SwiftUI view that reads it re-renders when it changes. Each change is stored before it is
/// announced, so code that an announcement schedules (on any thread) reads the new state.
///
/// Two counters keep stale values out. Every `load` starts a new query; every observation
/// started (by `load`, or again by ``refresh()`` after a change GRDB cannot see) gets a new
/// number, and a value or error from an older observation is dropped, which is what makes
/// `load` replace a query atomically. The observation holds the controller weakly, and the
/// controller cancels it when it is freed.
final class FetchController<Value: Sendable>: Observable, ExternalChangeSubscriber, @unchecked Sendable {
  typealias Fetch = @Sendable (Database) throws -> Value
  /// Wraps the state changes of a delivery, as SwiftUI's `withAnimation` does.
  typealias DeliveryWrapper = @Sendable (_ apply: () -> Void) -> Void

  /// What a live query reads: a fetch, or a value for a statement that selects nothing (such as
  /// `Player.none`), which needs no database.
  enum Query: Sendable {
    case fetch(Fetch)
    case constant(Value)
  }

  private let registrar = ObservationRegistrar()
  // Guards the stored state below, which deliveries may write from a database queue.
  private let lock = NSLock()
  // Held while a delivery stores and announces its changes, so that one live query's
  // announcements never overlap: with `.immediately`, the last value of a replaced observation
  // and the first of its replacement can arrive on two queues at once, and code that registers
  // again inside `onChange` must see them one after the other. Recursive, in case an `onChange`
  // leads to another delivery on the same thread.
  private let delivering = NSRecursiveLock()
  private var storedValue: Value
  private var storedIsLoading = false
  private var storedLoadError: (any Error)?
  /// The current query; nil once its subscription stopped it.
  private var query: Query?
  private var queryNumber = 0
  private var observationNumber = 0
  private var cancellable: AnyDatabaseCancellable?
  /// The `load` waiting for the current query's first value or error.
  private var waiter: CheckedContinuation<Int, any Error>?
  private var wrapper: DeliveryWrapper?
  private var externalChanges: ExternalChangeMonitor.Subscription?

  let database: (any DatabaseReader)?
  let delivery: FetchDelivery

  init(value: Value, database: (any DatabaseReader)?, delivery: FetchDelivery, query: Query) {
    storedValue = value
    self.database = database ?? DefaultDatabase.current
    self.delivery = delivery
    // Nothing can observe the controller yet, so its first value may be set here, on any thread.
    switchQuery(to: query, waiter: nil, wrapper: nil, scheduler: delivery.firstValueInPlace)
  }

  deinit {
    cancellable?.cancel()
  }

  var value: Value {
    registrar.access(self, keyPath: \.value)
    return lock.withLock { storedValue }
  }

  var isLoading: Bool {
    registrar.access(self, keyPath: \.isLoading)
    return lock.withLock { storedIsLoading }
  }

  var loadError: (any Error)? {
    registrar.access(self, keyPath: \.loadError)
    return lock.withLock { storedLoadError }
  }

  /// Replaces the observed query, and returns once the new query's first value (or error) has
  /// been delivered where the delivery delivers.
  func load(_ query: Query, wrapper: DeliveryWrapper? = nil) async throws -> FetchSubscription {
    let number = try await withCheckedThrowingContinuation { continuation in
      delivery.perform {
        self.switchQuery(to: query, waiter: continuation, wrapper: wrapper, scheduler: self.delivery.allValuesDelivered)
      }
    }
    return FetchSubscription { [weak self] in self?.stop(number) }
  }

  /// Fetches the current query again in a new observation: the database changed in a way
  /// GRDB's observation does not report (another process, another connection, the schema).
  func refresh() {
    delivery.perform {
      let restart: (fetch: Fetch, observation: Int, previous: AnyDatabaseCancellable?)? = self.lock.withLock {
        guard case .fetch(let fetch) = self.query else { return nil }
        self.observationNumber += 1
        defer { self.cancellable = nil }
        return (fetch, self.observationNumber, self.cancellable)
      }
      guard let restart else { return }
      restart.previous?.cancel()
      self.observe(restart.fetch, restart.observation, scheduler: self.delivery.allValuesDelivered)
    }
  }

  /// Starts observing `query` as a new query, cancelling the previous one.
  private func switchQuery(
    to query: Query, waiter: CheckedContinuation<Int, any Error>?, wrapper: DeliveryWrapper?,
    scheduler: any ValueObservationScheduler
  ) {
    typealias Previous = (observation: Int, cancellable: AnyDatabaseCancellable?, waiter: CheckedContinuation<Int, any Error>?)
    let previous: Previous = lock.withLock {
      queryNumber += 1
      observationNumber += 1
      defer {
        self.query = query
        self.cancellable = nil
        self.waiter = waiter
        self.wrapper = wrapper
      }
      return (observationNumber, cancellable, self.waiter)
    }
    previous.cancellable?.cancel()
    previous.waiter?.resume(throwing: CancellationError())
    switch query {
    case .constant(let value):
      deliver(value, previous.observation)
    case .fetch(let fetch):
      delivering.withLock { update(\.isLoading, previous.observation) { $0.storedIsLoading = true } }
      observe(fetch, previous.observation, scheduler: scheduler)
    }
  }

  /// Starts observation number `observation` of `fetch`.
  private func observe(_ fetch: @escaping Fetch, _ observation: Int, scheduler: any ValueObservationScheduler) {
    guard let database else {
      fail(StrataError("no database for this live query: call DefaultDatabase.set(_:) at launch, or pass database:"), observation)
      return
    }
    // Subscribed before the first fetch, so a change that GRDB cannot see and that commits after
    // the fetch is caught by the monitor's first check.
    let isSubscribed = lock.withLock { externalChanges != nil }
    if !isSubscribed {
      let subscription = ExternalChangeMonitor.subscribe(self, to: database)
      lock.withLock { externalChanges = subscription }
    }
    let cancellable = ValueObservation.tracking(fetch).start(
      in: database, scheduling: scheduler,
      onError: { [weak self] error in self?.fail(error, observation) },
      onChange: { [weak self] value in self?.deliver(value, observation) })
    let isCurrent = lock.withLock {
      guard observationNumber == observation else { return false }
      self.cancellable = cancellable
      return true
    }
    if !isCurrent { cancellable.cancel() }
  }

  private func deliver(_ value: Value, _ observation: Int) {
    typealias Current = (
      waiter: CheckedContinuation<Int, any Error>?, query: Int, wrapper: DeliveryWrapper?, clearsError: Bool,
      endsLoading: Bool
    )
    let current: Current? = delivering.withLock {
      let current: Current? = lock.withLock {
        guard observationNumber == observation else { return nil }
        defer { waiter = nil }
        return (waiter, queryNumber, wrapper, storedLoadError != nil, storedIsLoading)
      }
      guard let current else { return nil }
      // Only what changes is announced: most deliveries change the value alone.
      let apply = {
        self.update(\.value, observation) { $0.storedValue = value }
        if current.clearsError { self.update(\.loadError, observation) { $0.storedLoadError = nil } }
        if current.endsLoading { self.update(\.isLoading, observation) { $0.storedIsLoading = false } }
      }
      if let wrapper = current.wrapper { wrapper(apply) } else { apply() }
      return current
    }
    if let current { current.waiter?.resume(returning: current.query) }
  }

  /// Keeps the last good value and reports the error; the observation has stopped.
  private func fail(_ error: any Error, _ observation: Int) {
    let waiter: CheckedContinuation<Int, any Error>?? = delivering.withLock {
      let waiter: CheckedContinuation<Int, any Error>?? = lock.withLock {
        guard observationNumber == observation else { return .none }
        defer { self.waiter = nil }
        return .some(self.waiter)
      }
      guard case .some = waiter else { return .none }
      update(\.loadError, observation) { $0.storedLoadError = error }
      update(\.isLoading, observation) { $0.storedIsLoading = false }
      return waiter
    }
    if case .some(let waiter) = waiter { waiter?.resume(throwing: error) }
  }

  /// Stops observing, if query number `number` is still the current query.
  private func stop(_ number: Int) {
    let stopped: AnyDatabaseCancellable?? = lock.withLock {
      guard queryNumber == number else { return .none }
      query = nil
      observationNumber += 1
      defer { cancellable = nil }
      return .some(cancellable)
    }
    if case .some(let cancellable) = stopped { cancellable?.cancel() }
  }

  /// Stores a change, if observation number `observation` is still current, and then announces
  /// it. Storing first means that whatever an Observation `onChange` triggers reads the new
  /// state, even on another thread.
  private func update<Member>(
    _ keyPath: KeyPath<FetchController, Member>, _ observation: Int, _ change: (FetchController) -> Void
  ) {
    let changed = lock.withLock {
      guard observationNumber == observation else { return false }
      change(self)
      return true
    }
    if changed { registrar.withMutation(of: self, keyPath: keyPath) {} }
  }
}

/// The observation a `load` started: await ``task`` to keep it for as long as a task runs.
public struct FetchSubscription: Sendable {
  let stop: @Sendable () -> Void

  /// Suspends until the current task is cancelled, then stops observing:
  ///
  /// ```swift
  /// .task { try? await $players.load(query).task }   // observes while the view is shown
  /// ```
  public var task: Void {
    get async throws {
      let (stream, continuation) = AsyncStream<Never>.makeStream()
      await withTaskCancellationHandler {
        for await _ in stream {}
      } onCancel: {
        stop()
        continuation.finish()
      }
      throw CancellationError()
    }
  }
}
