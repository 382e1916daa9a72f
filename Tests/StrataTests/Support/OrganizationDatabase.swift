import Foundation
import Strata

/// A fresh in-memory database with the organization schema, seeded:
///
/// | id | employee | manager | salary |
/// |---|---|---|---|
/// | 1 | Ada | | 300000 |
/// | 2 | Grace | Ada | 200000 |
/// | 3 | Linus | Grace | 150000 |
/// | 4 | Ken | Grace | 150000 |
///
/// Comments: 1 "Root" with reply 2 "Reply", which has reply 3 "Nested"; 4 "Other" has none.
/// Documents: 1 "Plan", 2 "Draft" (deleted), 3 "Notes".
func organizationDatabase(
  _ location: DatabaseLocation = .inMemory, pooled: Bool = false, configuration: Configuration = Configuration()
) throws -> any DatabaseWriter {
  let database = try testDatabase(location, pooled: pooled, configuration: configuration)
  try database.write { db in try db.seed(organizationRows) }
  return database
}

/// The rows of ``organizationDatabase(_:pooled:configuration:)``, for a database of either dialect.
@SeedsBuilder func organizationRows() -> Seeds {
  Employee.Draft(name: "Ada", salary: 300_000)
  Employee.Draft(name: "Grace", managerID: 1, salary: 200_000)
  Employee.Draft(name: "Linus", managerID: 2, salary: 150_000)
  Employee.Draft(name: "Ken", managerID: 2, salary: 150_000)
  Comment.Draft(body: "Root")
  Comment.Draft(parentID: 1, body: "Reply")
  Comment.Draft(parentID: 2, body: "Nested")
  Comment.Draft(body: "Other")
  Document.Draft(title: "Plan")
  Document.Draft(title: "Draft", isDeleted: true)
  Document.Draft(title: "Notes")
}
