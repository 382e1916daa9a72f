// SQLite's core scalar functions on database expressions. Arguments that are Swift values are
// bound parameters.

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `nullif(x, y)`: NULL when the two are equal, `x` otherwise.
  public func nullif<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<QueryValue.Unwrapped?>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.function("nullif", queryFragment, other.queryFragment))
  }

  /// `nullif(x, ?)`, with a value of the expression's type: `$0.title.nullif("")`.
  public func nullif(_ other: QueryValue) -> AnyQueryExpression<QueryValue.Unwrapped?> {
    AnyQueryExpression(SQLOperator.function("nullif", queryFragment, other.queryFragment))
  }

  /// `max(x, y)`, the scalar function: the larger value, or NULL if either is NULL. (Without
  /// an argument, `max()` is the aggregate.)
  public func max<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.function(.max, queryFragment, other.queryFragment))
  }

  /// `max(x, ?)`, with a value of the expression's type: `$0.score.max(0)`.
  public func max(_ other: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function(.max, queryFragment, other.queryFragment))
  }

  /// `min(x, y)`, the scalar function: the smaller value, or NULL if either is NULL. (Without
  /// an argument, `min()` is the aggregate.)
  public func min<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.function(.min, queryFragment, other.queryFragment))
  }

  /// `min(x, ?)`, with a value of the expression's type.
  public func min(_ other: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function(.min, queryFragment, other.queryFragment))
  }

  /// `quote(x)`: the value as an SQL literal (text quoted, blobs as `X'…'`, NULL as `NULL`).
  public func quote() -> AnyQueryExpression<String> {
    AnyQueryExpression(SQLOperator.sqliteFunction("quote", queryFragment))
  }

  /// `typeof(x)`: the storage class of the value: `"null"`, `"integer"`, `"real"`, `"text"` or
  /// `"blob"`.
  public func typeof() -> AnyQueryExpression<String> {
    AnyQueryExpression(SQLOperator.sqliteFunction("typeof", queryFragment))
  }
}

extension DatabaseExpression where QueryValue: _OptionalQueryValue, QueryValue.Wrapped: QueryBindable {
  /// `ifnull(x, y)`: `y` when `x` is NULL; non-optional when `y` is.
  public func ifnull(_ other: some QueryExpression<QueryValue.Wrapped>) -> AnyQueryExpression<QueryValue.Wrapped> {
    AnyQueryExpression(SQLOperator.function(.ifnull, queryFragment, other.queryFragment))
  }

  /// `ifnull(x, y)` with an optional `y`: NULL only when both are.
  @_disfavoredOverload
  public func ifnull(_ other: some QueryExpression<QueryValue>) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function(.ifnull, queryFragment, other.queryFragment))
  }
}

extension DatabaseExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: Numeric {
  /// `abs(x)`: the absolute value.
  public func abs() -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function("abs", queryFragment))
  }

  /// `round(x)` or `round(x, digits)`: a REAL rounded to `digits` decimal places (0 by
  /// default). (PostgreSQL rounds to digits only a `numeric`: there, the value is cast to one.)
  public func round(_ digits: Int? = nil) -> AnyQueryExpression<Double> {
    guard let digits else { return AnyQueryExpression(SQLOperator.function("round", queryFragment)) }
    return AnyQueryExpression(
      SQLOperator.function("round", queryFragment.castForPostgreSQL("numeric"), digits.queryFragment.castForPostgreSQL("integer")))
  }
}

extension DatabaseExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == String {
  /// `instr(x, y)`: the 1-based character position of the first `other` in the text, 0 when it
  /// is absent.
  public func instr(_ other: some QueryExpression<String>) -> AnyQueryExpression<Int> {
    AnyQueryExpression(SQLOperator.function(.instr, queryFragment, other.queryFragment))
  }

  /// `replace(x, y, z)`: every `other` in the text replaced with `replacement`.
  public func replace(
    _ other: some QueryExpression<String>, _ replacement: some QueryExpression<String>
  ) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(
      SQLOperator.function("replace", queryFragment, other.queryFragment, replacement.queryFragment))
  }

  /// `substr(x, start, length)`: `length` characters from the 1-based `start` (to the end when
  /// `length` is nil); a negative `start` counts from the end, on SQLite only (PostgreSQL's
  /// `substr` reads it otherwise, so a statement with one is refused there).
  public func substr(_ start: Int, _ length: Int? = nil) -> AnyQueryExpression<QueryValue> {
    var arguments = [queryFragment, start.queryFragment.castForPostgreSQL("integer")]
    if let length { arguments.append(length.queryFragment.castForPostgreSQL("integer")) }
    let call = SQLOperator.call(QueryFragment(raw: "substr"), arguments)
    return AnyQueryExpression(start < 0 ? call.sqliteOnly("substr with a negative start") : call)
  }

  /// `x GLOB pattern`: Unix-style wildcards (`*`, `?`, `[…]`), case-sensitive.
  public func glob(_ pattern: some QueryExpression<String>) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(SQLOperator.binary(self, " GLOB ", pattern).sqliteOnly("GLOB").compound())
  }
}

/// Functions that take no column: `SQLFunction.random()`.
public enum SQLFunction {
  /// `random()`: a pseudo-random 64-bit integer, a new one per row: `.order { _ in
  /// SQLFunction.random() }`.
  public static func random() -> AnyQueryExpression<Int> {
    // PostgreSQL's random() is a double in [0, 1).
    AnyQueryExpression(QueryFragment(piece: .respelled(sqlite: "random()", postgreSQL: "CAST(random() * 9223372036854775807 AS bigint)")))
  }
}
