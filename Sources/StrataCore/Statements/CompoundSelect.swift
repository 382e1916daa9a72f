// Compound selects combine the rows of two statements with the same result type:
//
//   Item.select(\.title).union(Category.select(\.name))      // distinct rows of both
//   Item.select(\.title).union(all: true, Tag.select(\.name)) // every row of both
//   a.intersect(b), a.except(b)
//
// The rows come in no particular order; order them through a common table expression.

/// `lhs UNION [ALL] rhs`, `lhs INTERSECT rhs` or `lhs EXCEPT rhs`, whose rows decode as
/// `QueryValue`.
public struct CompoundSelect<QueryValue>: SelectStatement, DatabaseExpression, Hashable, Sendable {
  let fragment: QueryFragment
  let isNothing: Bool

  init(_ lhs: some SelectStatement, _ keyword: String, _ rhs: some SelectStatement, isEmpty: Bool) {
    // SQLite applies compound operators left to right, so a compound on the right becomes a
    // subquery to keep `a.except(b.union(c))` meaning what it says.
    let right = rhs is any CompoundSelectProtocol
      ? rhs.queryFragment.selectedFrom() : rhs.compoundOperandFragment
    fragment = (lhs.compoundOperandFragment + QueryFragment(raw: " \(keyword) ") + right).marked(.statement)
    isNothing = isEmpty
  }

  public var queryFragment: QueryFragment { fragment }

  public var isEmpty: Bool { isNothing }

  public var singleBatch: QueryFragment? { isNothing ? QueryFragment() : fragment }

  /// A compound select used as a result column is a parenthesized scalar subquery.
  public var resultColumns: [ResultColumn] {
    [ResultColumn(fragment.parenthesized())]
  }
}

/// Marks compound selects, whose type parameter a cast cannot name.
protocol CompoundSelectProtocol {}

extension CompoundSelect: CompoundSelectProtocol {}

extension SelectStatement {
  /// `self UNION other`: the distinct rows of both (`UNION ALL`, every row, when `all` is true).
  public func union(all: Bool = false, _ other: some SelectStatement<QueryValue>) -> CompoundSelect<QueryValue> {
    CompoundSelect(self, all ? "UNION ALL" : "UNION", other, isEmpty: isEmpty && other.isEmpty)
  }

  /// `self INTERSECT other`: the distinct rows that both return.
  public func intersect(_ other: some SelectStatement<QueryValue>) -> CompoundSelect<QueryValue> {
    CompoundSelect(self, "INTERSECT", other, isEmpty: isEmpty || other.isEmpty)
  }

  /// `self EXCEPT other`: the distinct rows of this statement that `other` does not return.
  public func except(_ other: some SelectStatement<QueryValue>) -> CompoundSelect<QueryValue> {
    CompoundSelect(self, "EXCEPT", other, isEmpty: isEmpty)
  }
}

// Statements that select whole rows (`Columns == ()`, so `QueryValue == ()`) combine as rows of
// their table, with each other and with statements of the table's type.
extension Select where Columns == (), Joins == () {
  /// `self UNION other` of whole rows: `Item.where { … }.union(Item.where { … })`.
  public func union(all: Bool = false, _ other: Where<From>) -> CompoundSelect<From> {
    CompoundSelect(self, all ? "UNION ALL" : "UNION", other, isEmpty: isEmpty && other.isEmpty)
  }

  /// `self UNION other` with a compound select of rows of the table.
  public func union(all: Bool = false, _ other: some SelectStatement<From>) -> CompoundSelect<From> {
    CompoundSelect(self, all ? "UNION ALL" : "UNION", other, isEmpty: isEmpty && other.isEmpty)
  }

  /// `self INTERSECT other` of whole rows.
  public func intersect(_ other: Where<From>) -> CompoundSelect<From> {
    CompoundSelect(self, "INTERSECT", other, isEmpty: isEmpty || other.isEmpty)
  }

  /// `self INTERSECT other` with a compound select of rows of the table.
  public func intersect(_ other: some SelectStatement<From>) -> CompoundSelect<From> {
    CompoundSelect(self, "INTERSECT", other, isEmpty: isEmpty || other.isEmpty)
  }

  /// `self EXCEPT other` of whole rows.
  public func except(_ other: Where<From>) -> CompoundSelect<From> {
    CompoundSelect(self, "EXCEPT", other, isEmpty: isEmpty)
  }

  /// `self EXCEPT other` with a compound select of rows of the table.
  public func except(_ other: some SelectStatement<From>) -> CompoundSelect<From> {
    CompoundSelect(self, "EXCEPT", other, isEmpty: isEmpty)
  }
}

extension CompoundSelect where QueryValue: Table {
  /// `self UNION other` with a statement of whole rows of the table.
  public func union(all: Bool = false, _ other: Where<QueryValue>) -> Self {
    CompoundSelect(self, all ? "UNION ALL" : "UNION", other, isEmpty: isEmpty && other.isEmpty)
  }

  /// `self INTERSECT other` with a statement of whole rows of the table.
  public func intersect(_ other: Where<QueryValue>) -> Self {
    CompoundSelect(self, "INTERSECT", other, isEmpty: isEmpty || other.isEmpty)
  }

  /// `self EXCEPT other` with a statement of whole rows of the table.
  public func except(_ other: Where<QueryValue>) -> Self {
    CompoundSelect(self, "EXCEPT", other, isEmpty: isEmpty)
  }
}

// A row of a table type is a one-row operand, as StructuredQueries spells a recursive common
// table expression's first row: `Count(value: 1).union(Count.select { … })`.
extension Table {
  /// `SELECT ? AS "a", … UNION other`: this row and `other`'s rows, distinct (every row when
  /// `all` is true).
  public func union(all: Bool = false, _ other: some SelectStatement<Self>) -> CompoundSelect<Self> {
    Values(self).union(all: all, other)
  }

  /// `SELECT ? AS "a", … INTERSECT other`: this row, if `other` returns it.
  public func intersect(_ other: some SelectStatement<Self>) -> CompoundSelect<Self> {
    Values(self).intersect(other)
  }

  /// `SELECT ? AS "a", … EXCEPT other`: this row, unless `other` returns it.
  public func except(_ other: some SelectStatement<Self>) -> CompoundSelect<Self> {
    Values(self).except(other)
  }
}
