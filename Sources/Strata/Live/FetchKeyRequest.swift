import GRDB

/// Several queries that a live query (`@Fetch`) runs together, in one read transaction, so that
/// their results are consistent with each other and update together.
///
/// ```swift
/// struct Facts: FetchKeyRequest {
///   var ordering: Ordering
///   struct Value: Sendable { var games: [Game] = []; var playerCount = 0 }
///
///   func fetch(_ db: Database) throws -> Value {
///     Value(
///       games: try Game.order(by: \.title).fetchAll(db),
///       playerCount: try Player.fetchCount(db))
///   }
/// }
///
/// @Fetch(Facts(ordering: .title)) var facts = Facts.Value()
/// ```
///
/// Requests are `Hashable` values, so two live queries with equal requests show the same data.
public protocol FetchKeyRequest<Value>: Hashable, Sendable {
  /// What the request fetches.
  associatedtype Value: Sendable

  /// Runs the request's queries; a live query calls it in a read transaction, again after
  /// every write that changes what it read.
  func fetch(_ db: Database) throws -> Value
}
