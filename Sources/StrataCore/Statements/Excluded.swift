/// The columns of the row an upsert tried to insert, SQLite's `excluded` table: `$1` in a
/// `doUpdate` closure.
@dynamicMemberLookup
public struct Excluded<Base: Table>: Sendable {
  @usableFromInline init() {}

  /// The value the insert proposed for a column: `"excluded"."column"`.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> TableColumn<Base, Value> {
    TableColumn(Base.columns[keyPath: keyPath].name, qualifier: "excluded")
  }
}
