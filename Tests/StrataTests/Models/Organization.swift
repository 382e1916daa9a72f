// An organization chart and a comment thread: tables that refer to themselves, for table
// aliases (self-joins) and recursive common table expressions.
import Foundation
import Strata

struct Employee: Table, Identifiable {
  let id: Int
  var name = ""
  var managerID: Employee.ID?
  var salary: Int64 = 0
}

struct Comment: Table, Identifiable {
  let id: Int
  var parentID: Comment.ID?
  var body = ""
}

extension Employee.TableColumns {
  /// A helper on the table's columns, for use on either side of a join.
  var isWellPaid: AnyQueryExpression<Bool> { salary >= 200_000 }
}

/// A table with a default scope: queries that start from the type skip deleted documents.
struct Document: Table, Identifiable {
  let id: Int
  var title = ""
  var isDeleted = false

  static let all = unscoped.where { !$0.isDeleted }
}

/// The table of a counting common table expression.
struct Counter: Selection {
  let value: Int
}

/// A comment with its depth in the thread: a recursive common table expression's table.
struct ThreadedComment: Selection {
  let id: Int
  let body: String
  let depth: Int
}

/// Employees above a salary, as a common table expression.
struct WellPaidEmployee: Selection {
  let id: Int
  let name: String
}

/// A counting table that fetches as its single value, as StructuredQueries writes one: rows of
/// `Count.all` decode as `Int`.
struct Count: Selection {
  let value: Int
}

extension Count {
  init(queryOutput: Int) { value = queryOutput }

  var queryOutput: Int { value }
}

/// The employees under a manager, with their salaries: a recursive common table expression's
/// table whose first row is a value of the type.
struct EmployeeReport: Selection {
  let id: Int
  let name: String
  let salary: Int64
}
