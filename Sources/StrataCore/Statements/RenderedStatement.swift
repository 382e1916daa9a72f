/// A statement rendered once, for code that runs the same statement many times, such as a live
/// query that refetches after every write: its SQL and bindings are kept, and its rows decode
/// as `QueryValue` (for a select of whole rows, its table or tables).
package struct RenderedStatement<QueryValue>: QueryStatement, Sendable {
  package let queryFragment: QueryFragment
  package let isEmpty: Bool

  package init(_ statement: some QueryStatement) {
    queryFragment = statement.queryFragment
    isEmpty = statement.isEmpty
  }
}
