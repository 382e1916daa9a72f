/// ` RETURNING …` of an insert, update or delete.
struct ReturningClause: Hashable, Sendable {
  var columns: [ResultColumn] = []

  init() {}

  init<each Selected: QueryExpression>(_ selected: repeat each Selected) {
    for expression in repeat each selected {
      columns.append(contentsOf: expression.resultColumns)
    }
  }

  var queryFragment: QueryFragment {
    guard !columns.isEmpty else { return QueryFragment() }
    return " RETURNING " + columns.queryFragment
  }
}
