/// SQL written by hand, for what the query builder does not cover, whose rows decode as
/// `QueryValue`.
///
/// Create one with ``sql(_:)`` or ``sql(_:as:)``. The text comes from a string literal in your
/// code; interpolated values are bound parameters, never SQL:
///
/// ```swift
/// try sql("UPDATE \(Player.self) SET \(quote: "score") = 0 WHERE \(Player.columns.name) = \(name)")
///   .execute(db)
/// let names = try sql("SELECT name FROM players WHERE score > \(10)", as: String.self)
///   .fetchAll(db)
/// ```
///
/// | Interpolation | Becomes |
/// |---|---|
/// | `\(value)` | a `?` bound to the value (any ``QueryBindable``) |
/// | `\(expression)` | the expression's SQL and bindings (a column, `$0.score + 1`, a select) |
/// | `\(Player.self)` | the table's quoted name, `"players"` |
/// | `\(quote: name)` | `name` as a quoted identifier |
/// | `\(raw: text)` | `text` as is: only for trusted text, never for user input |
public struct SQLQuery<QueryValue>: QueryStatement, DatabaseExpression, Hashable, Sendable,
  ExpressibleByStringInterpolation
{
  public let queryFragment: QueryFragment

  /// Text written by hand, which PostgreSQL runs unnamed (see ``QueryStatement/isPreparedForReuse``).
  public var isPreparedForReuse: Bool { false }

  public init(stringLiteral value: String) {
    queryFragment = QueryFragment(raw: value)
  }

  public init(stringInterpolation: StringInterpolation) {
    queryFragment = stringInterpolation.fragment
  }

  /// SQL text taken as is. The text is not escaped: pass only text you wrote.
  public init(raw sql: String) {
    queryFragment = QueryFragment(raw: sql)
  }

  /// The pieces of an interpolated SQL literal.
  public struct StringInterpolation: StringInterpolationProtocol {
    var fragment = QueryFragment()

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) {
      fragment.append(raw: literal)
    }

    /// A value as a bound parameter, or an expression's SQL with its bindings.
    public mutating func appendInterpolation(_ expression: some QueryExpression) {
      fragment.append(expression.queryFragment)
    }

    /// A table's quoted name, with its database's when that is an attached one.
    public mutating func appendInterpolation<T: Table>(_ table: T.Type) {
      fragment.append(raw: T._tableSQL.name)
    }

    /// A quoted identifier: double quotes around it, inner double quotes doubled.
    public mutating func appendInterpolation(quote identifier: String) {
      fragment.append(quoting: identifier)
    }

    /// Text inserted as SQL without escaping. Never pass text that comes from users.
    public mutating func appendInterpolation(raw text: String) {
      fragment.append(raw: text)
    }
  }
}

/// Hand-written SQL that returns no rows of interest, for statements such as DDL.
public func sql(_ query: SQLQuery<()>) -> SQLQuery<()> {
  query
}

/// Hand-written SQL whose rows decode as `type`: a single type (`Int.self`, `Player.self`) or a
/// tuple (`(String, Int).self`).
public func sql<QueryValue>(_ query: SQLQuery<QueryValue>, as type: QueryValue.Type) -> SQLQuery<QueryValue> {
  query
}

/// Hand-written SQL whose type is the one its place needs, as StructuredQueries' `#sql` infers
/// it: `Image.Columns(caption: sql("upper('blob')"), …)` is a `String` expression. Without such
/// a place, `sql("…")` is a statement of no rows (the form above).
@_disfavoredOverload
public func sql<QueryValue>(_ query: SQLQuery<QueryValue>) -> SQLQuery<QueryValue> {
  query
}
