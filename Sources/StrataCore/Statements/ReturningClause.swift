/// ` RETURNING …` of an insert, update or delete.
@usableFromInline
struct ReturningClause: Hashable, Sendable {
  @usableFromInline var columns: [ResultColumn] = []

  @usableFromInline init() {}

  init(_ selected: some QueryExpression) {
    columns = selected.resultColumns
  }

  init(_ columns: [ResultColumn]) {
    self.columns = columns
  }

  @usableFromInline var queryFragment: QueryFragment {
    guard !columns.isEmpty else { return QueryFragment() }
    return " RETURNING " + columns.queryFragment
  }
}
