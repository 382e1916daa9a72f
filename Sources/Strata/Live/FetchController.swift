import Foundation
import GRDB
import Observation

/// The state behind a live query: its value, loading state and error, and the GRDB
/// observation that keeps the value current.
///
/// Reads of the value register with the Observation framework, so an `@Observable` model or a
/// SwiftUI view that reads it re-renders when it changes. Each observation started carries a
/// generation number; a value or error from an older generation is dropped, which is what makes
/// `load` replace a query atomically. The observation holds the controller weakly, and the
/// controller cancels it when it is freed.
final class FetchController<Value: Sendable>: Observable, @unchecked Sendable {
  typealias Fetch = @Sendable (Database) throws -> Value
  /// Wraps the state changes of a delivery, as SwiftUI's `withAnimation` does.
  typealias DeliveryWrapper = @Sendable (_ apply: () -> Void) -> Void

  private let registrar = ObservationRegistrar()
  // Guards the stored state below, which deliveries may write from a database queue.
  private let lock = NSLock()
  private var storedValue: Value
  private var storedIsLoading = false
  private var storedLoadError: (any Error)?
  private var generation = 0
  private var cancellable: AnyDatabaseCancellable?
  private var firstValue: CheckedContinuation<Void, any Error>?
  private var wrapper: DeliveryWrapper?

  let database: (any DatabaseReader)?
  let delivery: FetchDelivery

  /// A controller that observes `fetch`, or holds `constant` without touching the database
  /// (for a statement that selects nothing, such as `Player.none`).
  init(value: Value, database: (any DatabaseReader)?, delivery: FetchDelivery, fetch: @escaping Fetch, constant: Value? = nil) {
    storedValue = value
    self.database = database ?? DefaultDatabase.current
    self.delivery = delivery
    start(fetch, constant: constant)
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
  /// been delivered.
  func load(
    _ fetch: @escaping Fetch, constant: Value? = nil, wrapper: DeliveryWrapper? = nil
  ) async throws -> FetchSubscription {
    try await withCheckedThrowingContinuation { continuation in
      start(fetch, constant: constant, firstValue: continuation, wrapper: wrapper)
    }
    let generation = lock.withLock { self.generation }
    return FetchSubscription { [weak self] in self?.stop(generation) }
  }

  /// Starts observing `fetch`, cancelling the previous observation.
  private func start(
    _ fetch: @escaping Fetch, constant: Value? = nil, firstValue: CheckedContinuation<Void, any Error>? = nil,
    wrapper: DeliveryWrapper? = nil
  ) {
    let (generation, previous, previousWaiter) = lock.withLock {
      self.generation += 1
      defer {
        self.cancellable = nil
        self.firstValue = firstValue
        self.wrapper = wrapper
      }
      return (self.generation, self.cancellable, self.firstValue)
    }
    previous?.cancel()
    previousWaiter?.resume(throwing: CancellationError())
    if let constant {
      deliver(constant, generation)
      return
    }
    guard let database else {
      fail(StrataError("no database for this live query: call DefaultDatabase.set(_:) at launch, or pass database:"), generation)
      return
    }
    update(\.isLoading) { $0.storedIsLoading = true }
    let cancellable = ValueObservation.tracking(fetch).start(
      in: database, scheduling: delivery.scheduler,
      onError: { [weak self] error in self?.fail(error, generation) },
      onChange: { [weak self] value in self?.deliver(value, generation) })
    let isCurrent = lock.withLock {
      guard self.generation == generation else { return false }
      self.cancellable = cancellable
      return true
    }
    if !isCurrent { cancellable.cancel() }
  }

  private func deliver(_ value: Value, _ generation: Int) {
    typealias Current = (
      waiter: CheckedContinuation<Void, any Error>?, wrapper: DeliveryWrapper?, clearsError: Bool, endsLoading: Bool
    )
    let current: Current? = lock.withLock {
      guard self.generation == generation else { return nil }
      defer { firstValue = nil }
      return (firstValue, wrapper, storedLoadError != nil, storedIsLoading)
    }
    guard let current else { return }
    // Only what changes is announced: most deliveries change the value alone.
    let apply = {
      self.update(\.value) { if $0.generation == generation { $0.storedValue = value } }
      if current.clearsError {
        self.update(\.loadError) { if $0.generation == generation { $0.storedLoadError = nil } }
      }
      if current.endsLoading {
        self.update(\.isLoading) { if $0.generation == generation { $0.storedIsLoading = false } }
      }
    }
    if let wrapper = current.wrapper { wrapper(apply) } else { apply() }
    current.waiter?.resume()
  }

  /// Keeps the last good value and reports the error; the observation has stopped.
  private func fail(_ error: any Error, _ generation: Int) {
    let waiter: CheckedContinuation<Void, any Error>?? = lock.withLock {
      guard self.generation == generation else { return .none }
      defer { firstValue = nil }
      return .some(firstValue)
    }
    guard case .some(let waiter) = waiter else { return }
    update(\.loadError) { if $0.generation == generation { $0.storedLoadError = error } }
    update(\.isLoading) { if $0.generation == generation { $0.storedIsLoading = false } }
    waiter?.resume(throwing: error)
  }

  /// Stops observing, if `generation` is still the current observation.
  private func stop(_ generation: Int) {
    let stopped = lock.withLock {
      guard self.generation == generation else { return AnyDatabaseCancellable?.none }
      defer { cancellable = nil }
      return cancellable
    }
    stopped?.cancel()
  }

  /// Writes stored state under the lock, notifying observers of `keyPath` outside it.
  private func update<Member>(_ keyPath: KeyPath<FetchController, Member>, _ change: (FetchController) -> Void) {
    registrar.withMutation(of: self, keyPath: keyPath) {
      lock.withLock { change(self) }
    }
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
