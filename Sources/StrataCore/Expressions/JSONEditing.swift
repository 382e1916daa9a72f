import StrataSQL

// Editing a JSON value in SQL: setting, inserting, replacing and removing at a path, on SQLite's
// JSON text and PostgreSQL's jsonb alike.
//
//   Item.update { $0.tags = $0.tags.jsonSet("$[0]", "z") }
//   // SQLite:     UPDATE "items" SET "tags" = json_set("items"."tags", '$[0]', ?)
//   // PostgreSQL: UPDATE "items" SET "tags" = jsonb_set("items"."tags", ARRAY['0'], to_jsonb($1))
//
// A path is structure, like a column's name, so it is written into the SQL as a quoted literal
// in each database's form: SQLite's `$.key[0]`, PostgreSQL's array of steps. It is a key
// (`.name`, or `."a key"` quoted) or an array index (`[0]`) after another, from `$`. A path
// of another form (`[#]`, `[#-1]`) is SQLite's alone: on PostgreSQL the statement is refused
// with a `DialectError` naming it.

extension DatabaseExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped: JSONTextRepresentable {
  /// `json_set(x, path, value)`: the JSON with `value` at `path`, replacing what is there or
  /// creating it (a missing key, or the index just past an array's end).
  public func jsonSet<Value: QueryExpression>(_ path: String, _ value: Value) -> AnyQueryExpression<QueryValue>
  where Value.QueryValue: QueryBindable {
    JSONEdit.set(self, path, value, replacingOnly: false)
  }

  /// `json_replace(x, path, value)`: the JSON with `value` at `path` when something is there,
  /// unchanged otherwise.
  public func jsonReplace<Value: QueryExpression>(_ path: String, _ value: Value) -> AnyQueryExpression<QueryValue>
  where Value.QueryValue: QueryBindable {
    JSONEdit.set(self, path, value, replacingOnly: true)
  }

  /// `json_insert(x, path, value)`: the JSON with `value` at `path` when nothing is there,
  /// unchanged otherwise.
  public func jsonInsert<Value: QueryExpression>(_ path: String, _ value: Value) -> AnyQueryExpression<QueryValue>
  where Value.QueryValue: QueryBindable {
    let steps = JSONEdit.postgreSQLPath(path)
    var fragment = QueryFragment(piece: .respelled(sqlite: "json_insert(", postgreSQL: "(SELECT CASE WHEN j #> \(steps) IS NULL THEN jsonb_set(j, \(steps), to_jsonb(v)) ELSE j END FROM (SELECT "))
    fragment.append(queryFragment.argument)
    fragment.append(QueryFragment(piece: .respelled(sqlite: ", " + SQLQuoting.string(path) + ", ", postgreSQL: " AS j, ")))
    fragment.append(JSONEdit.value(value))
    fragment.append(QueryFragment(piece: .respelled(sqlite: ")", postgreSQL: " AS v) AS edited)")))
    return AnyQueryExpression(JSONEdit.checked(fragment, path))
  }

  /// `json_remove(x, path)`: the JSON without what is at `path` (unchanged when nothing is).
  public func jsonRemove(_ path: String) -> AnyQueryExpression<QueryValue> {
    var fragment = QueryFragment(piece: .respelled(sqlite: "json_remove(", postgreSQL: "("))
    fragment.append(queryFragment.argument)
    fragment.append(
      QueryFragment(piece: .respelled(sqlite: ", " + SQLQuoting.string(path) + ")", postgreSQL: " #- " + JSONEdit.postgreSQLPath(path) + ")")))
    return AnyQueryExpression(JSONEdit.checked(fragment, path))
  }

  /// `json_patch(x, patch)`: RFC 7396's merge of `patch` into the JSON (objects merge key by key,
  /// recursively; a null in the patch removes the key). SQLite's alone: PostgreSQL has no
  /// merge patch (its `||` merges one level, and keeps nulls).
  public func jsonPatch<Patch: QueryExpression>(_ patch: Patch) -> AnyQueryExpression<QueryValue>
  where Patch.QueryValue: QueryRepresentable, Patch.QueryValue.Unwrapped: JSONTextRepresentable {
    AnyQueryExpression(SQLOperator.sqliteFunction("json_patch", queryFragment, patch.queryFragment))
  }
}

enum JSONEdit {
  static func set<Target: QueryExpression, Value: QueryExpression>(
    _ target: Target, _ path: String, _ value: Value, replacingOnly: Bool
  ) -> AnyQueryExpression<Target.QueryValue> where Value.QueryValue: QueryBindable {
    let name = replacingOnly ? "json_replace(" : "json_set("
    var fragment = QueryFragment(piece: .respelled(sqlite: name, postgreSQL: "jsonb_set("))
    fragment.append(target.queryFragment.argument)
    fragment.append(QueryFragment(piece: .respelled(sqlite: ", " + SQLQuoting.string(path) + ", ", postgreSQL: ", " + postgreSQLPath(path) + ", ")))
    fragment.append(self.value(value))
    fragment.append(QueryFragment(piece: .respelled(sqlite: ")", postgreSQL: replacingOnly ? ", false)" : ")")))
    return AnyQueryExpression(checked(fragment, path))
  }

  /// The value as JSON: PostgreSQL's `to_jsonb(v)`; on SQLite the value itself, except a
  /// Boolean, which SQLite binds as 1 or 0 and JSON writes `true` or `false`.
  static func value<Value: QueryExpression>(_ value: Value) -> QueryFragment where Value.QueryValue: QueryBindable {
    let isBoolean = Value.QueryValue.Unwrapped.self == Bool.self
    var fragment = QueryFragment(
      piece: .respelled(sqlite: isBoolean ? "CASE " : "", postgreSQL: "to_jsonb("))
    fragment.append(value.queryFragment.operand)
    fragment.append(
      QueryFragment(piece: .respelled(sqlite: isBoolean ? " WHEN 1 THEN json('true') WHEN 0 THEN json('false') END" : "", postgreSQL: ")")))
    return fragment
  }

  /// PostgreSQL's form of `path`: `ARRAY['key', '0']`; nil for a path of another form.
  static func postgreSQLSteps(_ path: String) -> String? {
    var rest = Substring(path)
    guard rest.first == "$" else { return nil }
    rest = rest.dropFirst()
    var steps: [String] = []
    while let first = rest.first {
      if first == "." {
        rest = rest.dropFirst()
        if rest.first == "\"" {
          let key = rest.dropFirst().prefix { $0 != "\"" }
          guard rest.dropFirst(key.count + 1).first == "\"" else { return nil }
          steps.append(String(key))
          rest = rest.dropFirst(key.count + 2)
        } else {
          let key = rest.prefix { $0 != "." && $0 != "[" }
          guard !key.isEmpty else { return nil }
          steps.append(String(key))
          rest = rest.dropFirst(key.count)
        }
      } else if first == "[" {
        let index = rest.dropFirst().prefix { $0 != "]" }
        guard !index.isEmpty, index.allSatisfy(\.isASCII), index.allSatisfy(\.isNumber), rest.dropFirst(index.count + 1).first == "]"
        else { return nil }
        steps.append(String(index))
        rest = rest.dropFirst(index.count + 2)
      } else {
        return nil
      }
    }
    guard !steps.isEmpty else { return nil }
    return "ARRAY[" + steps.map(SQLQuoting.string).joined(separator: ", ") + "]"
  }

  static func postgreSQLPath(_ path: String) -> String {
    postgreSQLSteps(path) ?? "NULL"
  }

  /// The edit, marked as SQLite's alone when PostgreSQL cannot take its path.
  static func checked(_ fragment: QueryFragment, _ path: String) -> QueryFragment {
    postgreSQLSteps(path) == nil ? fragment.sqliteOnly("the JSON path \(SQLQuoting.string(path))") : fragment
  }
}
