// SQLite's JSON functions: aggregating values or whole rows into JSON arrays that decode as
// Swift arrays, and reading JSON columns.
//
//   Game.group(by: \.id)
//     .leftJoin(Player.all) { $0.id.eq($1.gameID) }
//     .select { ($0.title, $1.jsonGroupArray()) }      // [(String, [Player])]

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `json_group_array(x)`: the values of the group as an array (NULLs included, in no
  /// guaranteed order).
  public func jsonGroupArray(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<JSONArray<QueryValue>> {
    Aggregate.call("json_group_array", self, distinct: distinct, filter: filter, sqliteOnly: true)
  }
}

extension TableColumnSet {
  /// `json_object('column', value, …)`: the row as a JSON object of its columns, which decodes
  /// as the row.
  public func jsonObject() -> AnyQueryExpression<JSONObject<QueryValue>> {
    AnyQueryExpression(objectFragment)
  }

  /// `json_group_array(json_object(…))`: the group's rows as an array, skipping the missing
  /// rows of an outer join: `$1.jsonGroupArray()` decodes as `[Player]`.
  public func jsonGroupArray(filter: (any QueryExpression<Bool>)? = nil) -> AnyQueryExpression<JSONArray<QueryValue>> {
    AnyQueryExpression(groupArrayFragment(filter: filter))
  }

  var objectFragment: QueryFragment {
    let members = resultColumns.flatMap { column in
      [(column.columnName ?? "").queryFragment, column.expression]
    }
    return SQLOperator.sqliteFunction("json_object", members.joined(separator: ", "))
  }

  func groupArrayFragment(filter: (any QueryExpression<Bool>)?) -> QueryFragment {
    let present = identity.isNot(nil)
    let condition = filter.map { present && AnyQueryExpression<Bool>($0.queryFragment) } ?? present
    let aggregate: AnyQueryExpression<Void> = Aggregate.call(
      "json_group_array", AnyQueryExpression<Void>(objectFragment), distinct: false, filter: condition, sqliteOnly: true)
    return aggregate.queryFragment
  }
}

extension NullableColumns {
  /// `json_group_array(json_object(…))` of the optional side of an outer join: the rows that
  /// matched, as an array of the table's (non-optional) rows.
  public func jsonGroupArray(
    filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<JSONArray<Base.QueryValue>> {
    AnyQueryExpression(groupArrayFragment(filter: filter))
  }
}

extension DatabaseExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped: JSONTextRepresentable {
  /// `json_array_length(x)`: the number of elements of a JSON array (0 for another JSON value,
  /// NULL for NULL).
  public func jsonArrayLength() -> AnyQueryExpression<Int?> {
    AnyQueryExpression(SQLOperator.sqliteFunction("json_array_length", queryFragment))
  }

  /// `json_extract(x, path)`: the value at a JSON path (`"$.name"`, `"$[0]"`; the path is a
  /// bound parameter), NULL when it is absent.
  public func jsonExtract<Value: QueryRepresentable>(
    _ path: String, as _: Value.Type = Value.self
  ) -> AnyQueryExpression<Value.Unwrapped?> {
    AnyQueryExpression(SQLOperator.sqliteFunction("json_extract", queryFragment, path.queryFragment))
  }
}
