import GRDB
import StrataCore

/// The rows of a query, kept up to date as the database changes.
///
/// ```swift
/// @Observable final class GameModel {
///   @ObservationIgnored @FetchAll var games: [Game]                       // Game.all
///   @ObservationIgnored @FetchAll(Player.order(by: \.name)) var players
///   @ObservationIgnored @FetchAll(Player.none) var results                // loaded later
///
///   func sort(by ordering: Ordering) async throws {
///     try await $players.load(Player.order { … })
///   }
/// }
/// ```
///
/// The first value is fetched when the property is created (before the initializer returns on
/// the main thread); after that, every write that changes the rows the query read fetches it
/// again, once per transaction, and a write to other tables does not. Reads of the value are
/// tracked by the Observation framework, so the owning `@Observable` model (mark the property
/// `@ObservationIgnored`) or SwiftUI view updates. A failing query keeps the last good value and
/// sets ``loadError``; it never traps. The observation stops when the property's owner is freed.
///
/// The database is ``DefaultDatabase/current`` unless `database:` names one.
@propertyWrapper
public struct FetchAll<Element: Sendable>: Sendable {
  let controller: FetchController<[Element]>

  /// The rows.
  public var wrappedValue: [Element] { controller.value }

  /// The live query itself: `$players.load(…)`, `$players.isLoading`, `$players.loadError`.
  public var projectedValue: Self { self }

  /// Whether a fetch is under way that has not delivered its value yet.
  public var isLoading: Bool { controller.isLoading }

  /// The error of the last fetch, if it failed; the value is the last good one.
  public var loadError: (any Error)? { controller.loadError }

  private init(
    _ rows: [Element], _ database: (any DatabaseReader)?, _ delivery: FetchDelivery, _ query: Query
  ) {
    controller = FetchController(value: rows, database: database, delivery: delivery, query: query)
  }

  typealias Query = FetchController<[Element]>.Query

  private static func query<Row>(
    _ rendered: RenderedStatement<Row>, _ fetch: @escaping @Sendable (RenderedStatement<Row>, Database) throws -> [Element]
  ) -> Query {
    rendered.isEmpty ? .constant([]) : .fetch { db in try fetch(rendered, db) }
  }

  func load(_ query: Query, wrapper: FetchController<[Element]>.DeliveryWrapper? = nil) async throws -> FetchSubscription {
    try await controller.load(query, wrapper: wrapper)
  }

  /// Every row of the table, under its default scope: `@FetchAll var games: [Game]`.
  public init(
    wrappedValue: [Element] = [], database: (any DatabaseReader)? = nil, delivery: FetchDelivery = .mainActor
  ) where Element: StrataCore.Table, Element.QueryOutput == Element {
    self.init(wrappedValue, database, delivery, Self.rows(of: Element.all))
  }

  /// The rows of a filtered, ordered statement: `@FetchAll(Player.where { … }) var players`.
  public init<From: StrataCore.Table & SendableMetatype>(
    wrappedValue: [Element] = [], _ statement: Where<From>, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Element == From.QueryOutput {
    self.init(wrappedValue, database, delivery, Self.rows(of: statement))
  }

  /// The values a statement selects: a column, a `Selection`, a compound select, a `With`.
  public init<Statement: SelectStatement & Sendable>(
    wrappedValue: [Element] = [], _ statement: Statement, database: (any DatabaseReader)? = nil,
    delivery: FetchDelivery = .mainActor
  ) where Statement.QueryValue: QueryRepresentable, Element == Statement.QueryValue.QueryOutput {
    self.init(wrappedValue, database, delivery, Self.rows(of: statement))
  }

  /// The tuples a statement selects: `@FetchAll(Player.select { ($0.name, $0.score) }) var pairs`.
  public init<First: QueryRepresentable & SendableMetatype, Second: QueryRepresentable & SendableMetatype, each Column: QueryRepresentable & SendableMetatype, From: StrataCore.Table & SendableMetatype, Joins>(
    wrappedValue: [Element] = [], _ statement: Select<(First, Second, repeat each Column), From, Joins>,
    database: (any DatabaseReader)? = nil, delivery: FetchDelivery = .mainActor
  ) where Element == (First.QueryOutput, Second.QueryOutput, repeat (each Column).QueryOutput) {
    self.init(wrappedValue, database, delivery, Self.rows(of: statement))
  }

  /// The rows of joined tables: `@FetchAll(Game.leftJoin(Player.all) { … }) var rows`.
  public init<From: StrataCore.Table & SendableMetatype, Joined: StrataCore.Table & SendableMetatype, each More: StrataCore.Table & SendableMetatype>(
    wrappedValue: [Element] = [], _ statement: Select<(), From, (Joined, repeat each More)>,
    database: (any DatabaseReader)? = nil, delivery: FetchDelivery = .mainActor
  ) where Element == (From.QueryOutput, Joined.QueryOutput, repeat (each More).QueryOutput) {
    self.init(wrappedValue, database, delivery, Self.rows(of: statement))
  }

  /// Replaces the query with `statement`, fetches it and keeps observing it; returns once its
  /// rows are the value. No value of the previous query arrives after that. Throws the fetch's
  /// error (also kept in ``loadError``).
  @discardableResult
  public func load<From: StrataCore.Table & SendableMetatype>(_ statement: Where<From>) async throws -> FetchSubscription
  where Element == From.QueryOutput {
    try await load(Self.rows(of: statement))
  }

  /// Replaces the query with a statement that selects values.
  @discardableResult
  public func load<Statement: SelectStatement & Sendable>(_ statement: Statement) async throws -> FetchSubscription
  where Statement.QueryValue: QueryRepresentable, Element == Statement.QueryValue.QueryOutput {
    try await load(Self.rows(of: statement))
  }

  /// Replaces the query with a statement that selects tuples.
  @discardableResult
  public func load<First: QueryRepresentable & SendableMetatype, Second: QueryRepresentable & SendableMetatype, each Column: QueryRepresentable & SendableMetatype, From: StrataCore.Table & SendableMetatype, Joins>(
    _ statement: Select<(First, Second, repeat each Column), From, Joins>
  ) async throws -> FetchSubscription
  where Element == (First.QueryOutput, Second.QueryOutput, repeat (each Column).QueryOutput) {
    try await load(Self.rows(of: statement))
  }

  /// Replaces the query with a statement of joined tables' rows.
  @discardableResult
  public func load<From: StrataCore.Table & SendableMetatype, Joined: StrataCore.Table & SendableMetatype, each More: StrataCore.Table & SendableMetatype>(
    _ statement: Select<(), From, (Joined, repeat each More)>
  ) async throws -> FetchSubscription
  where Element == (From.QueryOutput, Joined.QueryOutput, repeat (each More).QueryOutput) {
    try await load(Self.rows(of: statement))
  }

  // Each statement is rendered once: the observation runs it again after every write. A
  // statement that selects nothing need not touch the database.

  static func rows<From: StrataCore.Table & SendableMetatype>(of statement: Where<From>) -> Query
  where Element == From.QueryOutput {
    query(RenderedStatement<From>(statement)) { rendered, db in try rendered.fetchAll(db) }
  }

  static func rows<Statement: SelectStatement & Sendable>(of statement: Statement) -> Query
  where Statement.QueryValue: QueryRepresentable, Element == Statement.QueryValue.QueryOutput {
    query(RenderedStatement<Statement.QueryValue>(statement)) { rendered, db in try rendered.fetchAll(db) }
  }

  static func rows<First: QueryRepresentable & SendableMetatype, Second: QueryRepresentable & SendableMetatype, each Column: QueryRepresentable & SendableMetatype, From: StrataCore.Table & SendableMetatype, Joins>(
    of statement: Select<(First, Second, repeat each Column), From, Joins>
  ) -> Query
  where Element == (First.QueryOutput, Second.QueryOutput, repeat (each Column).QueryOutput) {
    query(RenderedStatement<(First, Second, repeat each Column)>(statement)) { rendered, db in try rendered.fetchAll(db) }
  }

  static func rows<From: StrataCore.Table & SendableMetatype, Joined: StrataCore.Table & SendableMetatype, each More: StrataCore.Table & SendableMetatype>(
    of statement: Select<(), From, (Joined, repeat each More)>
  ) -> Query
  where Element == (From.QueryOutput, Joined.QueryOutput, repeat (each More).QueryOutput) {
    query(RenderedStatement<(From, Joined, repeat each More)>(statement)) { rendered, db in try rendered.fetchAll(db) }
  }
}
