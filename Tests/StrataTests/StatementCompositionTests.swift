import Foundation
import Strata
import Testing

/// Building statements up: default scopes, combining conditions, chaining after `update` and
/// `delete`, `RETURNING` shapes, and reshaping what a select returns.
@Suite struct StatementCompositionTests {
  @Test(arguments: TestDialect.all) func statementsFromTheTypeStartFromItsDefaultScope(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let titled = Document.where { $0.title.neq("Plan") }
      #expect(
        titled.queryFragment.sql.hasSuffix(
          #"FROM "documents" WHERE (NOT "documents"."isDeleted") AND ("documents"."title" <> ?)"#))
      #expect(try await titled.fetchAll(db).map(\.title) == ["Notes"])
      #expect(try await Document.fetchAll(db).map(\.title) == ["Plan", "Notes"])
      #expect(try await Document.fetchCount(db) == 2)
      #expect(try await Document.order(by: \.title).select(\.title).fetchAll(db) == ["Notes", "Plan"])
      #expect(try await Document.unscoped.fetchCount(db) == 3)
      #expect(try await Document.find(2).fetchOne(db) == nil)
      #expect(try await Document.unscoped.find(2).fetchOne(db)?.title == "Draft")

      try await Document.delete().execute(db)
      #expect(try await Document.unscoped.select(\.title).fetchAll(db) == ["Draft"])
    }
  }

  /// A select or delete by key alone, and an update's `WHERE` by key alone, come whole from SQL
  /// rendered once per table; any other clause, the default scope's included, still takes its
  /// place in the statement.
  @Test(arguments: TestDialect.all) func aLookupByKeyKeepsEveryOtherClause(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let columns = #""documents"."id", "documents"."title", "documents"."isDeleted""#
      let draft = Document.unscoped.find(2)
      expectSQL(draft, #"SELECT \#(columns) FROM "documents" WHERE "documents"."id" = 2"#)
      #expect(try await draft.fetchAll(db).map(\.title) == ["Draft"])
      let scoped = Document.find(2)
      expectSQL(scoped, #"SELECT \#(columns) FROM "documents" WHERE (NOT "documents"."isDeleted") AND ("documents"."id" = 2)"#)
      #expect(try await scoped.fetchAll(db).isEmpty)
      let narrowed = Document.unscoped.find(2).where { !$0.isDeleted }
      expectSQL(narrowed, #"SELECT \#(columns) FROM "documents" WHERE ("documents"."id" = 2) AND (NOT "documents"."isDeleted")"#)
      #expect(try await narrowed.fetchAll(db).isEmpty)
      let titles = Document.unscoped.find(2).select(\.title)
      expectSQL(titles, #"SELECT "documents"."title" FROM "documents" WHERE "documents"."id" = 2"#)
      #expect(try await titles.fetchAll(db) == ["Draft"])
      let limited = Document.unscoped.find(2).order(by: \.title).limit(1)
      expectSQL(limited, #"SELECT \#(columns) FROM "documents" WHERE "documents"."id" = 2 ORDER BY "documents"."title" LIMIT 1"#)
      #expect(try await limited.fetchAll(db).map(\.title) == ["Draft"])

      let rename = Document.unscoped.find(1).update { $0.title = "Plan (2)" }
      expectSQL(rename, #"UPDATE "documents" SET "title" = 'Plan (2)' WHERE "documents"."id" = 1"#)
      let renamed = Document.unscoped.find(1).update { $0.title += "!" }.returning(\.title)
      expectSQL(
        renamed, #"UPDATE "documents" SET "title" = "documents"."title" || '!' WHERE "documents"."id" = 1 RETURNING "documents"."title""#)
      let scopedRename = Document.find(2).update { $0.title = "Kept" }
      expectSQL(
        scopedRename, #"UPDATE "documents" SET "title" = 'Kept' WHERE (NOT "documents"."isDeleted") AND ("documents"."id" = 2)"#)
      try await rename.execute(db)
      #expect(try await renamed.fetchAll(db) == ["Plan (2)!"])
      try await scopedRename.execute(db)
      #expect(try await Document.unscoped.order(by: \.id).select(\.title).fetchAll(db) == ["Plan (2)!", "Draft", "Notes"])

      let returning = Document.unscoped.find(2).delete().returning(\.title)
      expectSQL(returning, #"DELETE FROM "documents" WHERE "documents"."id" = 2 RETURNING "documents"."title""#)
      let scopedDelete = Document.find(1).delete()
      expectSQL(scopedDelete, #"DELETE FROM "documents" WHERE (NOT "documents"."isDeleted") AND ("documents"."id" = 1)"#)
      let delete = Document.unscoped.find(3).delete()
      expectSQL(delete, #"DELETE FROM "documents" WHERE "documents"."id" = 3"#)
      #expect(try await returning.fetchAll(db) == ["Draft"])
      try await scopedDelete.execute(db)
      try await delete.execute(db)
      #expect(try await Document.unscoped.select(\.title).fetchAll(db) == [])
    }
  }

  /// A statement refined in several ways leaves itself and each refinement as they were. Its
  /// clauses other than its conditions share one object until one of them changes (copied on
  /// write), so this holds for its ordering, limits and selection as for its conditions, on any
  /// thread.
  @Test(arguments: TestDialect.all) func refiningAStatementLeavesItAsItWas(_ dialect: TestDialect) async throws {
    let byName = Employee.where { $0.salary > 100_000 }.order(by: \.name)
    let first = byName.limit(1)
    let rest = byName.limit(10, offset: 1)
    let names = byName.select(\.name)
    let pages = await withTaskGroup(of: (Int, String).self) { group in
      for page in 0..<8 { group.addTask { (page, byName.limit(1, offset: page).queryFragment.sql) } }
      return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    let columns = #""employees"."id", "employees"."name", "employees"."managerID", "employees"."salary""#
    let sql = #"SELECT \#(columns) FROM "employees" WHERE "employees"."salary" > 100000 ORDER BY "employees"."name""#
    expectSQL(byName, sql)
    expectSQL(first, sql + " LIMIT 1")
    expectSQL(rest, sql + " LIMIT 10 OFFSET 1")
    #expect(pages[3] == byName.limit(1, offset: 3).queryFragment.sql)
    #expect(pages[3]?.hasSuffix(" LIMIT ? OFFSET ?") == true)
    #expect(byName == Employee.where { $0.salary > 100_000 }.order(by: \.name))
    #expect(byName != first && first != rest)
    try await dialect.database(seeding: organizationRows()) { db throws in
      #expect(try await first.fetchAll(db).map(\.name) == ["Ada"])
      #expect(try await rest.fetchAll(db).map(\.name) == ["Grace", "Ken", "Linus"])
      #expect(try await names.fetchAll(db) == ["Ada", "Grace", "Ken", "Linus"])
      #expect(try await byName.fetchAll(db).map(\.name) == ["Ada", "Grace", "Ken", "Linus"])
      #expect(try await byName.fetchCount(db) == 4)
    }
  }

  @Test(arguments: TestDialect.all) func whereStatementsCombineWithAndOrAndNot(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let ada = Employee.where { $0.name.eq("Ada") }
      let wellPaid = Employee.where { $0.salary > 150_000 }
      let either = ada.or(Employee.where { $0.managerID.is(1) })
      #expect(
        either.queryFragment.sql.hasSuffix(
          #"WHERE ("employees"."name" = ?) OR ("employees"."managerID" IS ?)"#))
      #expect(try await either.select(\.name).fetchAll(db) == ["Ada", "Grace"])
      #expect(try await ada.and(wellPaid).fetchCount(db) == 1)
      let notWellPaid = wellPaid.not()
      #expect(notWellPaid.queryFragment.sql.hasSuffix(#"WHERE NOT ("employees"."salary" > ?)"#))
      #expect(try await notWellPaid.select(\.name).fetchAll(db) == ["Linus", "Ken"])
      #expect((ada || wellPaid).queryFragment == ada.or(wellPaid).queryFragment)
      #expect((ada && !wellPaid).queryFragment.sql.hasSuffix(#"WHERE ("employees"."name" = ?) AND (NOT ("employees"."salary" > ?))"#))
      #expect(try await (ada && !wellPaid).fetchCount(db) == 0)

      let managers = Employee.where { $0.managerID.isNot(nil) }.select(\.managerID)
      let managing = Employee.where { managers.contains($0.id) }.select(\.name)
      #expect(managing.queryFragment.sql.hasSuffix(#"WHERE "employees"."id" IN (SELECT "employees"."managerID" FROM "employees" WHERE "employees"."managerID" IS NOT NULL)"#))
      #expect(try await managing.fetchAll(db) == ["Ada", "Grace"])
    }
  }

  @Test(arguments: TestDialect.all) func whereClosuresTakeIfAndFor(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
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
      #expect(try await query.select(\.name).fetchAll(db) == ["Ken"])
      #expect(try await search([], managedBy: nil).fetchCount(db) == 4)
    }
  }

  @Test(arguments: TestDialect.all) func findBySubqueryIsIn(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let managed = Employee.find(Employee.where { $0.managerID.isNot(nil) }.select(\.managerID))
      #expect(
        managed.queryFragment.sql.hasSuffix(
          #"WHERE "employees"."id" IN (SELECT "employees"."managerID" FROM "employees" WHERE "employees"."managerID" IS NOT NULL)"#))
      #expect(try await managed.order(by: \.id).select(\.name).fetchAll(db) == ["Ada", "Grace"])
    }
  }

  @Test(arguments: TestDialect.all) func selectAppendsAndMapReshapes(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee.order(by: \.id).select(\.name).select { $0.salary }
      #expect(
        query.queryFragment.sql
          == #"SELECT "employees"."name", "employees"."salary" FROM "employees" ORDER BY "employees"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Ada", "Grace", "Linus", "Ken"])
      #expect(rows.map(\.1) == [300_000, 200_000, 150_000, 150_000])

      let mapped = query.map { name, salary in (salary, name.upper()) }
      #expect(mapped.queryFragment.sql.hasPrefix(#"SELECT "employees"."salary", upper("employees"."name") FROM"#))
      let mappedRows = try await mapped.fetchAll(db)
      #expect(mappedRows.map(\.0) == [300_000, 200_000, 150_000, 150_000])
      #expect(mappedRows.map(\.1) == ["ADA", "GRACE", "LINUS", "KEN"])
    }
  }

  @Test(arguments: TestDialect.all) func offsetAloneAndCountWithAFilter(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let rest = Employee.order(by: \.id).offset(2).select(\.name)
      #expect(rest.queryFragment.sql.hasSuffix(#"ORDER BY "employees"."id" LIMIT -1 OFFSET ?"#))
      #expect(try await rest.fetchAll(db) == ["Linus", "Ken"])

      let wellPaid = Employee.count { $0.salary >= 200_000 }
      #expect(
        wellPaid.queryFragment.sql
          == #"SELECT count(*) FILTER (WHERE "employees"."salary" >= ?) FROM "employees""#)
      #expect(try await wellPaid.fetchOne(db) == 2)
    }
  }

  @Test(arguments: TestDialect.all) func updateAndDeleteChainConditionsAndReturnRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let raise = Employee.update { $0.salary += 10_000 }.where { $0.managerID.eq(2) }.returning(\.salary)
      #expect(
        raise.queryFragment.description == """
          UPDATE "employees" SET "salary" = "employees"."salary" + 10000 \
          WHERE "employees"."managerID" = 2 RETURNING "employees"."salary"
          """)
      let raised: [Int64] = try await raise.fetchAll(db)
      #expect(raised == [160_000, 160_000])

      let removed = Employee.where { $0.managerID.eq(2) }.delete().where { $0.name.eq("Ken") }
        .returning { ($0.id, $0.name) }
      #expect(
        removed.queryFragment.description == """
          DELETE FROM "employees" WHERE ("employees"."managerID" = 2) AND ("employees"."name" = 'Ken') \
          RETURNING "employees"."id", "employees"."name"
          """)
      let rows = try await removed.fetchAll(db)
      #expect(rows.map(\.0) == [4])
      #expect(rows.map(\.1) == ["Ken"])
    }
  }

  @Test(arguments: TestDialect.all) func insertReturningOneColumnAKeyPathOrTheRow(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let ids: [Int] = try await Comment.insert { Comment.Draft(body: "New") }.returning { $0.id }.fetchAll(db)
      #expect(ids == [5])
      let bodies: [String] = try await Comment.insert { Comment.Draft(parentID: 5, body: "Again") }.returning(\.body).fetchAll(db)
      #expect(bodies == ["Again"])
      let rows: [Comment] = try await Comment.insert { Comment.Draft(body: "Whole") }.returning(\.self).fetchAll(db)
      #expect(rows.map(\.id) == [7])
      #expect(rows.map(\.body) == ["Whole"])
    }
  }
}
