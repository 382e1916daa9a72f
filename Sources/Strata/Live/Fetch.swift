import GRDB

/// The value of a ``FetchKeyRequest``, kept up to date as the database changes: several queries
/// read in one transaction, updated together.
///
/// ```swift
/// @Fetch(Facts(ordering: .title)) var facts = Facts.Value()
/// try await $facts.load(Facts(ordering: .score))
/// ```
///
/// It behaves like ``FetchAll``: see there for updates, errors, lifetime and the database.
@propertyWrapper
public struct Fetch<Value: Sendable>: Sendable {
  let controller: FetchController<Value>

  /// The request's value: `wrappedValue` until the first fetch.
  public var wrappedValue: Value { controller.value }

  /// The live query itself: `$facts.load(…)`, `$facts.isLoading`, `$facts.loadError`.
  public var projectedValue: Self { self }

  /// Whether a fetch is under way that has not delivered its value yet.
  public var isLoading: Bool { controller.isLoading }

  /// The error of the last fetch, if it failed; the value is the last good one.
  public var loadError: (any Error)? { controller.loadError }

  /// The value of `request`, read in one transaction.
  public init<Request: FetchKeyRequest>(
    wrappedValue: Value, _ request: Request, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Request.Value == Value {
    controller = FetchController(value: wrappedValue, database: database, delivery: delivery, query: .fetch(request.fetch))
  }

  /// Replaces the request, fetches it and keeps observing it; see `FetchAll.load(_:)`.
  @discardableResult
  public func load<Request: FetchKeyRequest>(_ request: Request) async throws -> FetchSubscription
  where Request.Value == Value {
    try await controller.load(.fetch(request.fetch))
  }
}
