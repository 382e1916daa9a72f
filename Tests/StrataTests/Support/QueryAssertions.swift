import Strata
import Testing

/// The columns of `items`, as every select of the whole table lists them.
let itemColumns = """
  "items"."id", "items"."categoryID", "items"."title", "items"."notes", "items"."price", "items"."quantity", \
  "items"."isActive", "items"."createdAt", "items"."dueDate", "items"."priority", "items"."status", "items"."tags", \
  "items"."photo", "items"."externalID"
  """

/// Checks a statement's whole SQL, with its bindings written inline, as StructuredQueries'
/// `assertQuery` shows it beside the rows.
func expectSQL(
  _ statement: some QueryStatement, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(statement.queryFragment.description == sql, sourceLocation: sourceLocation)
}
