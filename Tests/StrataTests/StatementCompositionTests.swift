import Foundation
import Strata
import Testing

/// Building statements up: default scopes, combining conditions, chaining after `update` and
/// `delete`, `RETURNING` shapes, and reshaping what a select returns.
@Suite struct StatementCompositionTests {
  let database: any DatabaseWriter

  init() throws {
    database = try organizationDatabase()
  }

  @Test func statementsFromTheTypeStartFromItsDefaultScope() throws {
    let titled = Document.where { $0.title.neq("Plan") }
    #expect(
      titled.queryFragment.sql.hasSuffix(
        #"FROM "documents" WHERE (NOT "documents"."isDeleted") AND ("documents"."title" <> ?)"#))
    #expect(try database.read { try titled.fetchAll($0) }.map(\.title) == ["Notes"])
    #expect(try database.read { try Document.fetchAll($0) }.map(\.title) == ["Plan", "Notes"])
    #expect(try database.read { try Document.fetchCount($0) } == 2)
    #expect(try database.read { try Document.order(by: \.title).select(\.title).fetchAll($0) } == ["Notes", "Plan"])
    #expect(try database.read { try Document.unscoped.fetchCount($0) } == 3)
    #expect(try database.read { try Document.find(2).fetchOne($0) } == nil)
    #expect(try database.read { try Document.unscoped.find(2).fetchOne($0) }?.title == "Draft")

    try database.write { try Document.delete().execute($0) }
    #expect(try database.read { try Document.unscoped.select(\.title).fetchAll($0) } == ["Draft"])
  }

  @Test func whereStatementsCombineWithAndOrAndNot() throws {
    let ada = Employee.where { $0.name.eq("Ada") }
    let wellPaid = Employee.where { $0.salary > 150_000 }
    let either = ada.or(Employee.where { $0.managerID.is(1) })
    #expect(
      either.queryFragment.sql.hasSuffix(
        #"WHERE ("employees"."name" = ?) OR ("employees"."managerID" IS ?)"#))
    #expect(try database.read { try either.select(\.name).fetchAll($0) } == ["Ada", "Grace"])
    #expect(try database.read { try ada.and(wellPaid).fetchCount($0) } == 1)
    let notWellPaid = wellPaid.not()
    #expect(notWellPaid.queryFragment.sql.hasSuffix(#"WHERE NOT ("employees"."salary" > ?)"#))
    #expect(try database.read { try notWellPaid.select(\.name).fetchAll($0) } == ["Linus", "Ken"])
    #expect((ada || wellPaid).queryFragment == ada.or(wellPaid).queryFragment)
    #expect((ada && !wellPaid).queryFragment.sql.hasSuffix(#"WHERE ("employees"."name" = ?) AND (NOT ("employees"."salary" > ?))"#))
    #expect(try database.read { try (ada && !wellPaid).fetchCount($0) } == 0)

    let managers = Employee.where { $0.managerID.isNot(nil) }.select(\.managerID)
    let managing = Employee.where { managers.contains($0.id) }.select(\.name)
    #expect(managing.queryFragment.sql.hasSuffix(#"WHERE "employees"."id" IN (SELECT "employees"."managerID" FROM "employees" WHERE "employees"."managerID" IS NOT NULL)"#))
    #expect(try database.read { try managing.fetchAll($0) } == ["Ada", "Grace"])
  }

  @Test func whereClosuresTakeIfAndFor() throws {
    func search(_ words: [String], managedBy manager: Int?) -> Where<Employee> {
      Employee.where {
        if let manager { $0.managerID.eq(manager) }
        for word in words { $0.name.contains(word) }
      }
    }
    let query = search(["n", "e"], managedBy: 2)
    #expect(
      query.queryFragment.sql.hasSuffix(
        #"WHERE ("employees"."managerID" = ?) AND (instr("employees"."name", ?) > 0) AND (instr("employees"."name", ?) > 0)"#))
    #expect(try database.read { try query.select(\.name).fetchAll($0) } == ["Ken"])
    #expect(try database.read { try search([], managedBy: nil).fetchCount($0) } == 4)
  }

  @Test func findBySubqueryIsIn() throws {
    let managed = Employee.find(Employee.where { $0.managerID.isNot(nil) }.select(\.managerID))
    #expect(
      managed.queryFragment.sql.hasSuffix(
        #"WHERE "employees"."id" IN (SELECT "employees"."managerID" FROM "employees" WHERE "employees"."managerID" IS NOT NULL)"#))
    #expect(try database.read { try managed.order(by: \.id).select(\.name).fetchAll($0) } == ["Ada", "Grace"])
  }

  @Test func selectAppendsAndMapReshapes() throws {
    let query = Employee.order(by: \.id).select(\.name).select { $0.salary }
    #expect(
      query.queryFragment.sql
        == #"SELECT "employees"."name", "employees"."salary" FROM "employees" ORDER BY "employees"."id""#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == ["Ada", "Grace", "Linus", "Ken"])
    #expect(rows.map(\.1) == [300_000, 200_000, 150_000, 150_000])

    let mapped = query.map { name, salary in (salary, name.upper()) }
    #expect(mapped.queryFragment.sql.hasPrefix(#"SELECT "employees"."salary", upper("employees"."name") FROM"#))
    let mappedRows = try database.read { try mapped.fetchAll($0) }
    #expect(mappedRows.map(\.0) == [300_000, 200_000, 150_000, 150_000])
    #expect(mappedRows.map(\.1) == ["ADA", "GRACE", "LINUS", "KEN"])
  }

  @Test func offsetAloneAndCountWithAFilter() throws {
    let rest = Employee.order(by: \.id).offset(2).select(\.name)
    #expect(rest.queryFragment.sql.hasSuffix(#"ORDER BY "employees"."id" LIMIT -1 OFFSET ?"#))
    #expect(try database.read { try rest.fetchAll($0) } == ["Linus", "Ken"])

    let wellPaid = Employee.count { $0.salary >= 200_000 }
    #expect(
      wellPaid.queryFragment.sql
        == #"SELECT count(*) FILTER (WHERE "employees"."salary" >= ?) FROM "employees""#)
    #expect(try database.read { try wellPaid.fetchOne($0) } == 2)
  }

  @Test func updateAndDeleteChainConditionsAndReturnRows() throws {
    let raise = Employee.update { $0.salary += 10_000 }.where { $0.managerID.eq(2) }.returning(\.salary)
    #expect(
      raise.queryFragment.description == """
        UPDATE "employees" SET "salary" = "employees"."salary" + 10000 \
        WHERE "employees"."managerID" = 2 RETURNING "employees"."salary"
        """)
    let raised: [Int64] = try database.write { try raise.fetchAll($0) }
    #expect(raised == [160_000, 160_000])

    let removed = Employee.where { $0.managerID.eq(2) }.delete().where { $0.name.eq("Ken") }
      .returning { ($0.id, $0.name) }
    #expect(
      removed.queryFragment.description == """
        DELETE FROM "employees" WHERE ("employees"."managerID" = 2) AND ("employees"."name" = 'Ken') \
        RETURNING "employees"."id", "employees"."name"
        """)
    let rows = try database.write { try removed.fetchAll($0) }
    #expect(rows.map(\.0) == [4])
    #expect(rows.map(\.1) == ["Ken"])
  }

  @Test func insertReturningOneColumnAKeyPathOrTheRow() throws {
    let ids: [Int] = try database.write { db in
      try Comment.insert { Comment.Draft(body: "New") }.returning { $0.id }.fetchAll(db)
    }
    #expect(ids == [5])
    let bodies: [String] = try database.write { db in
      try Comment.insert { Comment.Draft(parentID: 5, body: "Again") }.returning(\.body).fetchAll(db)
    }
    #expect(bodies == ["Again"])
    let rows: [Comment] = try database.write { db in
      try Comment.insert { Comment.Draft(body: "Whole") }.returning(\.self).fetchAll(db)
    }
    #expect(rows.map(\.id) == [7])
    #expect(rows.map(\.body) == ["Whole"])
  }
}
