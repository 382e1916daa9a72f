/// Builds the conditions of a `WHERE` or `HAVING` clause from Boolean expressions, `if`/`else`
/// and `for` loops; the conditions combine with `AND`.
///
/// ```swift
/// Reminder.where {
///   $0.isCompleted.eq(false)
///   if let listID { $0.remindersListID.eq(listID) }
///   for word in words { $0.title.contains(word) }
/// }
/// ```
@resultBuilder
public enum PredicateBuilder: QueryFragmentListBuilder {
  public static func buildExpression<Predicate: QueryExpression>(_ predicate: Predicate) -> [QueryFragment]
  where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    [predicate.queryFragment]
  }
}
