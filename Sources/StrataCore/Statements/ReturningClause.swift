/// ` RETURNING …` of an insert, update or delete.
struct ReturningClause: Hashable, Sendable {
  var columns: [ResultColumn] = []

  init() {}

  init(_ selected: some QueryExpression) {
    columns = selected.resultColumns
  }

  init(_ columns: [ResultColumn]) {
    self.columns = columns
  }

  var queryFragment: QueryFragment {
    guard !columns.isEmpty else { return QueryFragment() }
    return " RETURNING " + columns.queryFragment
  }
}
