import Foundation
import Strata
import Testing

/// `CASE` expressions, searched and simple, in selections, orders, updates and aggregates.
@Suite struct CaseTests {
  @Test(arguments: TestDialect.all) func searchedCaseWithElse(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select {
        Case().when($0.price > 100, then: "expensive").when($0.price > 10, then: "fair").else("cheap")
      }
      #expect(
        query.queryFragment.sql == """
          SELECT CASE WHEN "items"."price" > ? THEN ? WHEN "items"."price" > ? THEN ? ELSE ? END \
          FROM "items" ORDER BY "items"."id"
          """)
      let labels: [String] = try await query.fetchAll(db)
      #expect(labels == ["expensive", "cheap", "fair", "fair", "fair"])

      // Integer literals in a `Double` case take the case's type.
      let weights = Item.order(by: \.id).select {
        Case().when($0.price > 100, then: 1.5).when($0.price > 10, then: 2).else(0)
      }
      #expect(try await weights.fetchAll(db) == [1.5, 0, 2, 2, 2])
    }
  }

  @Test(arguments: TestDialect.all) func simpleCaseWithoutElseIsOptional(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select {
        Case($0.priority).when(.high, then: "!!!").when(.medium, then: "!!")
      }
      #expect(
        query.queryFragment.sql == """
          SELECT CASE "items"."priority" WHEN ? THEN ? WHEN ? THEN ? END FROM "items" ORDER BY "items"."id"
          """)
      let marks: [String?] = try await query.fetchAll(db)
      #expect(marks == ["!!!", nil, nil, "!!", nil])
    }
  }

  @Test(arguments: TestDialect.all) func caseInAnOrderAnUpdateAndAnAggregate(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let byUrgency = Item.order {
        Case($0.priority).when(.high, then: 0).when(.medium, then: 1).else(2)
        $0.id
      }.select(\.title)
      #expect(
        byUrgency.queryFragment.sql.hasSuffix(
          #"ORDER BY CASE "items"."priority" WHEN ? THEN ? WHEN ? THEN ? ELSE ? END, "items"."id""#))
      #expect(try await byUrgency.fetchAll(db) == ["Phone", "Atlas", "Cable", "Novel", "Mystery box"])

      let cheapCount = Item.select { Case().when($0.price < 20, then: 1).else(0).sum() }
      #expect(cheapCount.queryFragment.sql.hasPrefix("SELECT sum(CASE WHEN"))
      #expect(try await cheapCount.fetchOne(db) == 2)

      let restock = Item.update {
        $0.quantity = Case().when($0.quantity.eq(0), then: 10).else($0.quantity)
      }
      #expect(
        restock.queryFragment.sql
          == #"UPDATE "items" SET "quantity" = CASE WHEN "items"."quantity" = ? THEN ? ELSE "items"."quantity" END"#)
      try await restock.execute(db)
      #expect(try await Item.order(by: \.id).select(\.quantity).fetchAll(db) == [3, 40, 7, 10, 1])
    }
  }

  @Test(arguments: TestDialect.all) func caseResultsMayBeColumnsAndSubqueries(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select {
        Case().when($0.notes.is(nil), then: $0.title).else($0.notes)
      }
      let rows: [String?] = try await query.fetchAll(db)
      #expect(rows == ["Flagship", "Cable", "Paperback", "Atlas", "Mystery box"])
    }
  }
}
