/// A column of table `Root` holding values of type `Value`.
///
/// It renders as a qualified, quoted reference: `"players"."score"`.
public struct TableColumn<Root: Table, Value: QueryRepresentable>: DatabaseExpression, Hashable,
  Sendable
{
  public typealias QueryValue = Value

  /// The column's name in the database.
  public let name: String

  /// The name that qualifies the column, when it is not the table's own (`excluded` in an
  /// upsert).
  let qualifier: String?

  /// A column named `name`.
  public init(_ name: String) {
    self.name = name
    self.qualifier = nil
  }

  init(_ name: String, qualifier: String?) {
    self.name = name
    self.qualifier = qualifier
  }

  public var queryFragment: QueryFragment {
    guard let qualifier else { return QueryFragment(raw: Root._tableSQL.column(name)) }
    return QueryFragment(table: qualifier, column: name)
  }
}
