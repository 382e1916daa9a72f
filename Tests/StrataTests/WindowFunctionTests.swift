import Foundation
import Strata
import Testing

/// Window functions on the organization chart: each test shows the SQL and the rows.
///
/// | id | employee | manager | salary |
/// |---|---|---|---|
/// | 1 | Ada | | 300000 |
/// | 2 | Grace | Ada | 200000 |
/// | 3 | Linus | Grace | 150000 |
/// | 4 | Ken | Grace | 150000 |
@Suite struct WindowFunctionTests {
  @Test(arguments: TestDialect.all) func rowNumberRankAndDenseRank(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee.order(by: \.id).select {
        (
          $0.name,
          rowNumber().over(orderBy: $0.salary.desc(), $0.name),
          rank().over(orderBy: $0.salary.desc()),
          denseRank().over(orderBy: $0.salary.desc())
        )
      }
      expectSQL(
        query,
        #"SELECT "employees"."name", row_number() OVER (ORDER BY "employees"."salary" DESC, "employees"."name"), rank() OVER (ORDER BY "employees"."salary" DESC), dense_rank() OVER (ORDER BY "employees"."salary" DESC) FROM "employees" ORDER BY "employees"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Ada", "Grace", "Linus", "Ken"])
      #expect(rows.map(\.1) == [1, 2, 4, 3])
      #expect(rows.map(\.2) == [1, 2, 3, 3])
      #expect(rows.map(\.3) == [1, 2, 3, 3])
    }
  }

  @Test(arguments: TestDialect.all) func aggregatesOverPartitionsAndRunningTotals(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee.order(by: \.id).select {
        (
          $0.salary.sum().over(partitionBy: $0.managerID),
          $0.count().over(partitionBy: $0.managerID),
          $0.salary.sum().over(orderBy: $0.id),
          $0.salary.avg().over(orderBy: $0.id, frame: .rows(from: .preceding(1), to: .currentRow))
        )
      }
      expectSQL(
        query,
        #"SELECT sum("employees"."salary") OVER (PARTITION BY "employees"."managerID"), count("employees"."id") OVER (PARTITION BY "employees"."managerID"), sum("employees"."salary") OVER (ORDER BY "employees"."id"), avg("employees"."salary") OVER (ORDER BY "employees"."id" ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM "employees" ORDER BY "employees"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == [300_000, 200_000, 300_000, 300_000])
      #expect(rows.map(\.1) == [1, 1, 2, 2])
      #expect(rows.map(\.2) == [300_000, 500_000, 650_000, 800_000])
      #expect(rows.map(\.3) == [300_000, 250_000, 175_000, 150_000])
    }
  }

  @Test(arguments: TestDialect.all) func valueFunctionsReadOtherRowsOfTheFrame(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee.order(by: \.id).select {
        (
          $0.name.lag().over(orderBy: $0.id),
          $0.salary.lead(1, default: 0).over(orderBy: $0.id),
          $0.name.firstValue().over(partitionBy: $0.managerID, orderBy: $0.name),
          $0.name.lastValue().over(orderBy: $0.id, frame: .rows(from: .currentRow, to: .unboundedFollowing)),
          $0.name.nthValue(2).over(orderBy: $0.id, frame: .rows(from: .unboundedPreceding, to: .unboundedFollowing))
        )
      }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == [nil, "Ada", "Grace", "Linus"])
      #expect(rows.map(\.1) == [200_000, 150_000, 150_000, 0])
      #expect(rows.map(\.2) == ["Ada", "Grace", "Ken", "Ken"])
      #expect(rows.map(\.3) == ["Ken", "Ken", "Ken", "Ken"])
      #expect(rows.map(\.4) == ["Grace", "Grace", "Grace", "Grace"])
    }
  }

  @Test(arguments: TestDialect.all) func distributionFunctions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee.order(by: \.id).select {
        (percentRank().over(orderBy: $0.salary), cumeDist().over(orderBy: $0.salary), ntile(2).over(orderBy: $0.id))
      }
      expectSQL(
        query,
        #"SELECT percent_rank() OVER (ORDER BY "employees"."salary"), cume_dist() OVER (ORDER BY "employees"."salary"), ntile(2) OVER (ORDER BY "employees"."id") FROM "employees" ORDER BY "employees"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == [1.0, 2.0 / 3, 0, 0])
      #expect(rows.map(\.1) == [1.0, 0.75, 0.5, 0.5])
      #expect(rows.map(\.2) == [1, 1, 2, 2])
    }
  }

  @Test(arguments: TestDialect.all) func aWindowOverAJoinAndAsASubqueryFilter(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      // The best-paid report of each manager: rank in a common table expression's rows is a
      // filter the outer query can use.
      let ranked = Employee.join(Employee.as(Manager.self).all) { $0.managerID.eq($1.id) }
        .select { ($0.name, $1.name, rank().over(partitionBy: $1.id, orderBy: $0.salary.desc(), $0.name)) }
      let rows: [(String, String, Int)] = try await ranked.fetchAll(db)
      let best = rows.filter { $0.2 == 1 }.map { row in row.1 + ": " + row.0 }
      #expect(best.sorted() == ["Ada: Grace", "Grace: Ken"])
    }
  }
}
