/// A Swift type that holds the result of a query: a row type for joins and aggregates.
///
/// ```swift
/// struct GameRow: Selection {
///   let game: Game
///   let playerCount: Int
/// }
///
/// Game.group(by: \.id)
///   .leftJoin(Player.all) { $0.id.eq($1.gameID) }
///   .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
/// ```
///
/// The generated `Columns` type has an initializer with one expression parameter per field;
/// fields decode in declaration order.
///
/// A selection fetches as itself, or as another type when it declares the conversion, as in
/// StructuredQueries (a counting common table expression whose rows fetch as `Int`):
///
/// ```swift
/// struct Count: Selection { let value: Int }
/// extension Count {
///   init(queryOutput: Int) { value = queryOutput }
///   var queryOutput: Int { value }
/// }
/// ```
public protocol Selection: QueryRepresentable {
  /// The expression that selects a value of this type, one argument per field.
  associatedtype Columns: QueryExpression where Columns.QueryValue == Self
}

/// The result columns of a ``Selection``, built field by field by its generated initializer.
public protocol SelectionColumns: QueryExpression {
  /// The fields' result columns, each named after its field (or, for a whole table, after its
  /// columns).
  var resultColumns: [ResultColumn] { get }
}

extension SelectionColumns {
  public var queryFragment: QueryFragment {
    resultColumns.queryFragment
  }
}
