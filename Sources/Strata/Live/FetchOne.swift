import GRDB
import StrataCore

/// One value of a query, kept up to date as the database changes: a row, a column or an
/// aggregate.
///
/// ```swift
/// @FetchOne(Player.count()) var playerCount = 0        // the value when there is no row
/// @FetchOne var game: Game?                             // a row of Game.all
/// @FetchOne(Player.find(id)) var player: Player?
/// ```
///
/// It behaves like ``FetchAll``: see there for updates, errors, lifetime and the database.
@propertyWrapper
public struct FetchOne<Value: Sendable>: Sendable {
  let controller: FetchController<Value>

  /// The value: the first row's, or the default when there is none.
  public var wrappedValue: Value { controller.value }

  /// The live query itself: `$player.load(…)`, `$player.isLoading`, `$player.loadError`.
  public var projectedValue: Self { self }

  /// Whether a fetch is under way that has not delivered its value yet.
  public var isLoading: Bool { controller.isLoading }

  /// The error of the last fetch, if it failed; the value is the last good one.
  public var loadError: (any Error)? { controller.loadError }

  private let defaultValue: Value

  private init<Row>(
    _ value: Value, _ database: (any DatabaseReader)?, _ delivery: FetchDelivery, _ rendered: RenderedStatement<Row>,
    _ fetch: @escaping FetchController<Value>.Fetch
  ) {
    defaultValue = value
    controller = FetchController(
      value: value, database: database, delivery: delivery, query: rendered.isEmpty ? .constant(value) : .fetch(fetch))
  }

  private func load<Row>(_ rendered: RenderedStatement<Row>, _ fetch: @escaping FetchController<Value>.Fetch) async throws -> FetchSubscription {
    try await controller.load(rendered.isEmpty ? .constant(defaultValue) : .fetch(fetch))
  }

  /// A row of the table under its default scope, or nil: `@FetchOne var game: Game?`.
  ///
  /// Not generic over the row type, so that a property without an initial value can use it.
  public init(
    wrappedValue: Value = nil, database: (any DatabaseReader)? = nil, delivery: FetchDelivery = .mainActor
  ) where Value: _OptionalQueryValue, Value.Wrapped: StrataCore.Table, Value.Wrapped.QueryOutput == Value.Wrapped {
    let rendered = RenderedStatement<Value.Wrapped>(Value.Wrapped.all)
    self.init(wrappedValue, database, delivery, rendered) { db in
      try rendered.fetchOne(db).map { Value._wrapping($0) } ?? wrappedValue
    }
  }

  /// The first row of a statement, or nil: `@FetchOne(Player.find(id)) var player: Player?`.
  public init<From: StrataCore.Table & SendableMetatype>(
    wrappedValue: Value = nil, _ statement: Where<From>, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Value == From.QueryOutput? {
    let rendered = RenderedStatement<From>(statement)
    self.init(wrappedValue, database, delivery, rendered) { db in try rendered.fetchOne(db) ?? wrappedValue }
  }

  /// The value a statement selects, or `wrappedValue` when it returns no row:
  /// `@FetchOne(Player.count()) var playerCount = 0`.
  public init<Statement: SelectStatement & Sendable>(
    wrappedValue: Value, _ statement: Statement, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Statement.QueryValue: QueryRepresentable, Value == Statement.QueryValue.QueryOutput {
    let rendered = RenderedStatement<Statement.QueryValue>(statement)
    self.init(wrappedValue, database, delivery, rendered) { db in try rendered.fetchOne(db) ?? wrappedValue }
  }

  /// The value a statement selects, or nil when it returns no row:
  /// `@FetchOne(Player.select(\.name)) var name: String?`.
  public init<Statement: SelectStatement & Sendable>(
    wrappedValue: Value = nil, _ statement: Statement, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Statement.QueryValue: QueryRepresentable, Value == Statement.QueryValue.QueryOutput? {
    let rendered = RenderedStatement<Statement.QueryValue>(statement)
    self.init(wrappedValue, database, delivery, rendered) { db in try rendered.fetchOne(db) ?? wrappedValue }
  }

  /// Replaces the query with `statement`'s first row; see `FetchAll.load(_:)`.
  @discardableResult
  public func load<From: StrataCore.Table & SendableMetatype>(_ statement: Where<From>) async throws -> FetchSubscription
  where Value == From.QueryOutput? {
    let defaultValue = defaultValue
    let rendered = RenderedStatement<From>(statement)
    return try await load(rendered) { db in try rendered.fetchOne(db) ?? defaultValue }
  }

  /// Replaces the query with the value `statement` selects (the default when it returns no row).
  @discardableResult
  public func load<Statement: SelectStatement & Sendable>(_ statement: Statement) async throws -> FetchSubscription
  where Statement.QueryValue: QueryRepresentable, Value == Statement.QueryValue.QueryOutput {
    let defaultValue = defaultValue
    let rendered = RenderedStatement<Statement.QueryValue>(statement)
    return try await load(rendered) { db in try rendered.fetchOne(db) ?? defaultValue }
  }

  /// Replaces the query with the value `statement` selects, or nil.
  @discardableResult
  public func load<Statement: SelectStatement & Sendable>(_ statement: Statement) async throws -> FetchSubscription
  where Statement.QueryValue: QueryRepresentable, Value == Statement.QueryValue.QueryOutput? {
    let defaultValue = defaultValue
    let rendered = RenderedStatement<Statement.QueryValue>(statement)
    return try await load(rendered) { db in try rendered.fetchOne(db) ?? defaultValue }
  }
}
