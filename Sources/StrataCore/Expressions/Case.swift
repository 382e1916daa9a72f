// `CASE` expressions. A searched case tests conditions in order; a simple case compares one
// value with each `WHEN`:
//
//   Case().when($0.score > 100, then: "high").when($0.score > 10, then: "mid").else("low")
//   Case($0.priority).when(.high, then: "!!!").when(.medium, then: "!!").else("")
//
// Without `else`, a row that matches no `WHEN` is NULL, so the expression is optional.
//
// The value-typed overloads are disfavored: a column read in an update (`.else($0.quantity)`)
// would otherwise resolve to the update's value-assigning member instead of the column.

/// The start of a `CASE` expression; add cases with `when(_:then:)`.
public struct Case<Base> {
  let base: QueryFragment?

  /// A simple `CASE value WHEN … THEN …`: compares `base` with each case's value (with `=`, so a
  /// NULL `base` matches no case).
  public init(_ base: some QueryExpression<Base>) {
    self.base = base.queryFragment
  }

  /// A searched `CASE WHEN condition THEN …`: the first case whose condition is true wins.
  public init() where Base == Bool {
    base = nil
  }

  /// The first case: the result is `then` when `condition` holds (searched) or equals the base
  /// (simple).
  public func when<Condition: QueryExpression, Result: QueryExpression>(
    _ condition: Condition, then result: Result
  ) -> Cases<Base, Result.QueryValue.Unwrapped>
  where
    Condition.QueryValue: QueryRepresentable, Base: QueryRepresentable,
    Condition.QueryValue.Unwrapped == Base.Unwrapped, Result.QueryValue: QueryRepresentable
  {
    Cases(base: base, cases: [Cases<Base, Result.QueryValue.Unwrapped>.when(condition, result)])
  }

  /// The first case of a simple `CASE`, with a value of the base's type: `.when(.high, then: …)`.
  public func when<Result: QueryExpression>(
    _ value: Base, then result: Result
  ) -> Cases<Base, Result.QueryValue.Unwrapped> where Base: QueryBindable, Result.QueryValue: QueryRepresentable {
    Cases(base: base, cases: [Cases<Base, Result.QueryValue.Unwrapped>.when(value, result)])
  }
}

/// A `CASE` expression with one or more cases: NULL when none matches, until `else(_:)` gives
/// a default.
public struct Cases<Base, Wrapped: QueryRepresentable>: DatabaseExpression, Hashable, Sendable {
  public typealias QueryValue = Wrapped?

  let base: QueryFragment?
  var cases: [QueryFragment]

  /// Another case, tested after the previous ones.
  public func when<Condition: QueryExpression, Result: QueryExpression>(
    _ condition: Condition, then result: Result
  ) -> Self
  where
    Condition.QueryValue: QueryRepresentable, Base: QueryRepresentable,
    Condition.QueryValue.Unwrapped == Base.Unwrapped, Result.QueryValue: QueryRepresentable,
    Result.QueryValue.Unwrapped == Wrapped
  {
    var cases = self
    cases.cases.append(Self.when(condition, result))
    return cases
  }

  /// Another case of a simple `CASE`, with a value of the base's type.
  public func when<Result: QueryExpression>(_ value: Base, then result: Result) -> Self
  where Base: QueryBindable, Result.QueryValue: QueryRepresentable, Result.QueryValue.Unwrapped == Wrapped {
    var cases = self
    cases.cases.append(Self.when(value, result))
    return cases
  }

  /// Another case whose result is a value of the expression's type, for literals the generic
  /// form cannot type: `then: 2` in a `Double` case.
  @_disfavoredOverload
  public func when<Condition: QueryExpression>(_ condition: Condition, then result: Wrapped) -> Self
  where
    Condition.QueryValue: QueryRepresentable, Base: QueryRepresentable,
    Condition.QueryValue.Unwrapped == Base.Unwrapped, Wrapped: QueryBindable
  {
    var cases = self
    cases.cases.append(Self.when(condition, result))
    return cases
  }

  /// `ELSE result END`: the value when no case matches; the expression is optional only if
  /// `result` is.
  public func `else`<Result: QueryExpression>(_ result: Result) -> AnyQueryExpression<Result.QueryValue>
  where Result.QueryValue: QueryRepresentable, Result.QueryValue.Unwrapped == Wrapped {
    AnyQueryExpression(rendered(else: result.queryFragment))
  }

  /// `ELSE ? END`, with a value of the expression's type, for literals the generic form cannot
  /// type: `.else(0)` in a `Double` case.
  @_disfavoredOverload
  public func `else`(_ result: Wrapped) -> AnyQueryExpression<Wrapped> where Wrapped: QueryBindable {
    AnyQueryExpression(rendered(else: result.queryFragment))
  }

  public var queryFragment: QueryFragment { rendered(else: nil) }

  // The keywords delimit each part, so operator expressions need no parentheses; subqueries do.
  private func rendered(else result: QueryFragment?) -> QueryFragment {
    var fragment: QueryFragment = "CASE"
    if let base {
      fragment.append(raw: " ")
      fragment.append(base.argument)
    }
    for when in cases {
      fragment.append(raw: " ")
      fragment.append(when)
    }
    if let result {
      fragment.append(raw: " ELSE ")
      fragment.append(result.argument)
    }
    fragment.append(raw: " END")
    return fragment
  }

  static func when(_ condition: some QueryExpression, _ result: some QueryExpression) -> QueryFragment {
    "WHEN " + condition.queryFragment.argument + " THEN " + result.queryFragment.argument
  }
}
