import Foundation
import Strata
import Testing

/// `WITH` statements: common table expressions in selects, updates, deletes and inserts, and
/// recursive ones.
@Suite struct CommonTableExpressionTests {
  @Test(arguments: TestDialect.all) func aCommonTableExpressionUsedByASelect(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = With {
        Employee.where { $0.salary >= 200_000 }.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
      } query: {
        Employee.where { $0.managerID.in(WellPaidEmployee.select(\.id)) }.order(by: \.id).select(\.name)
      }
      #expect(
        query.queryFragment.sql == """
          WITH "wellPaidEmployees" ("id", "name") AS (SELECT "employees"."id" AS "id", "employees"."name" AS "name" \
          FROM "employees" WHERE "employees"."salary" >= ?) \
          SELECT "employees"."name" FROM "employees" WHERE "employees"."managerID" IN \
          (SELECT "wellPaidEmployees"."id" FROM "wellPaidEmployees") ORDER BY "employees"."id"
          """)
      #expect(try await query.fetchAll(db) == ["Grace", "Linus", "Ken"])

      let rows: [WellPaidEmployee] = try await With {
        Employee.where { $0.salary >= 200_000 }.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
      } query: {
        WellPaidEmployee.order(by: \.name)
      }.fetchAll(db)
      #expect(rows.map(\.name) == ["Ada", "Grace"])
    }
  }

  @Test(arguments: TestDialect.all) func aRecursiveCounter(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = With {
        Values(Counter.Columns(value: 1))
          .union(all: true, Counter.where { $0.value < 5 }.select { Counter.Columns(value: $0.value + 1) })
      } query: {
        Counter.select { $0.value * 10 }
      }
      #expect(
        query.queryFragment.sql == """
          WITH "counters" ("value") AS (SELECT ? AS "value" UNION ALL \
          SELECT "counters"."value" + ? AS "value" FROM "counters" WHERE "counters"."value" < ?) \
          SELECT "counters"."value" * ? FROM "counters"
          """)
      #expect(try await query.fetchAll(db) == [10, 20, 30, 40, 50])
    }
  }

  @Test(arguments: TestDialect.all) func aRowOfTheTableStartsTheRecursion(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      // StructuredQueries' spelling: the first row is a value of the type, and the type decodes
      // as its single output.
      let query = With {
        Count(value: 1).union(Count.select { Count.Columns(value: $0.value + 1) })
      } query: {
        Count.limit(4)
      }
      #expect(
        query.queryFragment.sql == """
          WITH "counts" ("value") AS (SELECT ? AS "value" UNION \
          SELECT "counts"."value" + ? AS "value" FROM "counts") \
          SELECT "counts"."value" FROM "counts" LIMIT ?
          """)
      let counts: [Int] = try await query.fetchAll(db)
      #expect(counts == [1, 2, 3, 4])

      // Everyone under Ada, from her own row down, with every row kept.
      let ada = try #require(try await Employee.find(1).fetchOne(db))
      let reports = With {
        EmployeeReport(id: ada.id, name: ada.name, salary: ada.salary)
          .union(
            all: true,
            Employee.join(EmployeeReport.all) { $0.managerID.eq($1.id) }
              .select { EmployeeReport.Columns(id: $0.id, name: $0.name, salary: $0.salary) })
      } query: {
        EmployeeReport.order(by: \.id).select(\.name)
      }
      #expect(try await reports.fetchAll(db) == ["Ada", "Grace", "Linus", "Ken"])
      let average = With {
        EmployeeReport(id: ada.id, name: ada.name, salary: ada.salary)
          .union(all: true, Employee.join(EmployeeReport.all) { $0.managerID.eq($1.id) }.select { EmployeeReport.Columns(id: $0.id, name: $0.name, salary: $0.salary) })
      } query: {
        EmployeeReport.select { $0.salary.avg() }
      }
      #expect(try await average.fetchOne(db) == 200_000)
    }
  }

  @Test(arguments: TestDialect.all) func aRecursiveThreadWithDepth(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let thread = With {
        Comment.where { $0.parentID.is(nil) }
          .select { ThreadedComment.Columns(id: $0.id, body: $0.body, depth: 0) }
          .union(
            all: true,
            Comment.join(ThreadedComment.all) { $0.parentID.eq($1.id) }
              .select { ThreadedComment.Columns(id: $0.id, body: $0.body, depth: $1.depth + 1) })
      } query: {
        ThreadedComment.order { ($0.depth, $0.id) }
      }
      let comments = try await thread.fetchAll(db)
      #expect(comments.map(\.body) == ["Root", "Other", "Reply", "Nested"])
      #expect(comments.map(\.depth) == [0, 0, 1, 2])
    }
  }

  @Test(arguments: TestDialect.all) func laterExpressionsUseEarlierOnesAndWritesUseThem(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let raise = With {
        Employee.where { $0.salary >= 200_000 }.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        Values(Counter.Columns(value: 1_000))
      } query: {
        Employee
          .where { !$0.id.in(WellPaidEmployee.select(\.id)) }
          .update { $0.salary += 1_000 }
      }
      #expect(raise.queryFragment.sql.hasPrefix(#"WITH "wellPaidEmployees" ("id", "name") AS (SELECT"#))
      #expect(raise.queryFragment.sql.contains(#"), "counters" ("value") AS (SELECT ? AS "value") UPDATE "employees""#))
      try await raise.execute(db)
      #expect(try await Employee.order(by: \.id).select(\.salary).fetchAll(db) == [300_000, 200_000, 151_000, 151_000])

      let prune = With {
        Comment.where { $0.parentID.isNot(nil) }.select { Counter.Columns(value: $0.id) }
      } query: {
        Comment.where { $0.id.in(Counter.select(\.value)) }.delete().returning(\.body)
      }
      #expect(try await prune.fetchAll(db).sorted() == ["Nested", "Reply"])
      #expect(try await Comment.fetchCount(db) == 2)
    }
  }

  @Test(arguments: TestDialect.all) func anInsertFromACommonTableExpression(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let insert = With {
        Values(Counter.Columns(value: 1))
          .union(all: true, Counter.where { $0.value < 3 }.select { Counter.Columns(value: $0.value + 1) })
      } query: {
        Comment.insert { ($0.parentID, $0.body) } select: {
          Counter.select { ($0.value.nullif(0), "Re: " + $0.value.cast(as: String.self)) }
        }
      }
      #expect(insert.queryFragment.sql.contains(#") INSERT INTO "comments" ("parentID", "body") SELECT nullif("counters"."value", ?), ? || CAST("counters"."value" AS TEXT) FROM "counters""#))
      try await insert.execute(db)
      let added = try await Comment.where { $0.id > 4 }.order(by: \.id).select(\.body).fetchAll(db)
      #expect(added == ["Re: 1", "Re: 2", "Re: 3"])
    }
  }
}
