/// An SQL expression whose value has the Swift type `QueryValue`.
///
/// Columns (`$0.score`), values (`10`, `"Blob"`), operators (`$0.score + 1`), functions
/// (`$0.name.lower()`), aggregates (`$1.count()`) and subqueries are all expressions. The type
/// parameter is what keeps queries type-checked: `$0.score.eq("ten")` does not compile.
public protocol QueryExpression<QueryValue> {
  /// The Swift type of the expression's value.
  associatedtype QueryValue

  /// The expression's SQL and bindings.
  var queryFragment: QueryFragment { get }

  /// The result columns the expression contributes when it is selected: one for a scalar, one
  /// per column for a whole table.
  var resultColumns: [ResultColumn] { get }
}

extension QueryExpression {
  public var resultColumns: [ResultColumn] {
    [ResultColumn(queryFragment)]
  }

  /// The expression's result columns named for a ``Selection`` field: a scalar takes the field's
  /// name, a whole table keeps each of its column names, and a nested selection its fields'
  /// names.
  public func resultColumns(named name: String) -> [ResultColumn] {
    resultColumns.map { column in
      ResultColumn(column.expression, alias: column.columnName ?? column.alias ?? name)
    }
  }
}

/// An expression the database computes: a column, the result of an operator or function, a
/// subquery, raw SQL. Unlike a Swift value bound as a parameter.
///
/// SQL functions (`lower()`, `contains(_:)`), aggregates (`count()`, `sum()`) and ordering
/// (`asc()`, `desc()`) are available on these only, so that a Swift `String` keeps its own
/// `contains(_:)` and `hasPrefix(_:)` in files that import Strata.
public protocol DatabaseExpression: QueryExpression {}

/// One expression in the result list of a `SELECT` or `RETURNING` clause.
public struct ResultColumn: Hashable, Sendable {
  /// The selected expression.
  public var expression: QueryFragment
  /// For a column of a whole selected table, the column's name.
  public var columnName: String?
  /// The name given with `AS`, if any.
  public var alias: String?

  /// A result column for `expression`.
  public init(_ expression: QueryFragment, columnName: String? = nil, alias: String? = nil) {
    self.expression = expression
    self.columnName = columnName
    self.alias = alias
  }

  /// `expression AS "alias"`, or the expression alone.
  var queryFragment: QueryFragment {
    guard let alias else { return expression }
    var fragment = expression
    fragment.append(raw: " AS ")
    fragment.append(quoting: alias)
    return fragment
  }
}

extension ResultColumn {
  /// The lists of result columns one after the other: a `Columns` row's, one list per stored
  /// property, in generated code.
  public static func concatenating(_ lists: [[ResultColumn]]) -> [ResultColumn] {
    var columns: [ResultColumn] = []
    columns.reserveCapacity(lists.reduce(0) { $0 + $1.count })
    for list in lists { columns.append(contentsOf: list) }
    return columns
  }
}

extension [ResultColumn] {
  /// The result columns of the expressions `selection` returns for `input`, in order.
  ///
  /// Takes the closure rather than its tuple so that a `(First, Second, repeat each Rest)`
  /// result reaches the pack iteration as one pack.
  @inlinable
  init<Input, each Expression: QueryExpression>(
    _ selection: (Input) -> (repeat each Expression), _ input: Input
  ) {
    self = []
    for expression in repeat each selection(input) { appendTakingStorage(expression.resultColumns) }
  }

  /// The columns as a comma-separated result list.
  var queryFragment: QueryFragment {
    var fragment = QueryFragment()
    append(to: &fragment)
    return fragment
  }

  /// Appends the comma-separated result list to `fragment`, in place: no array of the columns'
  /// fragments and no string of the list of its own.
  func append(to fragment: inout QueryFragment) {
    for (index, column) in enumerated() {
      if index > 0 { fragment.append(raw: ", ") }
      fragment.append(column.queryFragment)
    }
  }
}
