/// A statement that returns rows: a ``Select``, a compound select (`union`, `intersect`,
/// `except`) or ``Values``. Any of them can be an operand of a compound select or the query of
/// a common table expression.
public protocol SelectStatement<QueryValue>: QueryStatement {}

/// How a statement appears as an operand of a compound select.
protocol CompoundOperand {
  /// The statement's SQL, made a valid operand: SQLite allows `ORDER BY` and `LIMIT` only after
  /// the last operand, so a statement that has them becomes `SELECT * FROM (…)`.
  var compoundOperand: QueryFragment { get }
}

extension SelectStatement {
  var compoundOperandFragment: QueryFragment {
    (self as? any CompoundOperand)?.compoundOperand ?? queryFragment
  }
}

extension Select: SelectStatement, CompoundOperand {
  var compoundOperand: QueryFragment {
    let clauses = resolved
    let fragment = clauses.queryFragment(table: From.tableFragment, tableColumns: From.allColumnsFragment)
    guard clauses.orders.isEmpty && clauses.limit == nil && clauses.offset == nil else {
      return fragment.selectedFrom()
    }
    return fragment
  }
}

extension QueryFragment {
  /// `SELECT * FROM (statement)`: a statement made an operand where its own clauses would not
  /// be allowed. (PostgreSQL names every subquery in FROM, so there it is `AS "operand"`.)
  func selectedFrom() -> QueryFragment {
    "SELECT * FROM " + parenthesized() + QueryFragment(piece: .postgreSQLText(#" AS "operand""#))
  }
}
