import Foundation
import Strata
import Testing

/// Aggregate functions, with and without `distinct:` and `filter:`.
@Suite struct AggregateTests {
  @Test(arguments: TestDialect.all) func countsOfRowsValuesAndDistinctValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.select {
        ($0.count(), $0.notes.count(), $0.categoryID.count(distinct: true), $0.count(filter: $0.isActive))
      }
      #expect(
        query.queryFragment.sql == """
          SELECT count("items"."id"), count("items"."notes"), count(DISTINCT "items"."categoryID"), \
          count("items"."id") FILTER (WHERE "items"."isActive") FROM "items"
          """)
      let row = try await query.fetchOne(db)
      #expect(row?.0 == 5)
      #expect(row?.1 == 2)
      #expect(row?.2 == 2)
      #expect(row?.3 == 4)
    }
  }

  @Test(arguments: TestDialect.all) func sumTotalAverageMinimumAndMaximum(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.select {
        ($0.quantity.sum(), $0.price.total(), $0.price.avg(), $0.price.min(), $0.title.max())
      }
      #expect(
        query.queryFragment.sql == """
          SELECT sum("items"."quantity"), total("items"."price"), avg("items"."price"), \
          min("items"."price"), max("items"."title") FROM "items"
          """)
      let row = try await query.fetchOne(db)
      #expect(row?.0 == 51)
      #expect(row?.1 == 788.5)
      #expect(row?.2 == 157.7)
      #expect(row?.3 == 9.5)
      #expect(row?.4 == "Phone")
    }
  }

  @Test(arguments: TestDialect.all) func aggregatesOfNoRowsAreNullExceptCountAndTotal(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { $0.price > 1_000 }.select {
        ($0.count(), $0.quantity.sum(), $0.price.total(), $0.price.avg(), $0.price.max(), $0.title.groupConcat())
      }
      let row = try await query.fetchOne(db)
      #expect(row?.0 == 0)
      #expect(row?.1 == nil)
      #expect(row?.2 == 0)
      #expect(row?.3 == nil)
      #expect(row?.4 == nil)
      #expect(row?.5 == nil)
    }
  }

  @Test(arguments: TestDialect.all) func filteredAggregates(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.select {
        (
          $0.quantity.sum(filter: $0.isActive),
          $0.price.avg(filter: $0.categoryID.eq(1)),
          $0.price.max(filter: $0.notes.isNot(nil)),
          $0.title.groupConcat(separator: "|", filter: $0.price < 20)
        )
      }
      #expect(query.queryFragment.sql.contains(#"sum("items"."quantity") FILTER (WHERE "items"."isActive")"#))
      #expect(query.queryFragment.sql.contains(#"group_concat("items"."title", ?) FILTER (WHERE "items"."price" < ?)"#))
      let row = try await query.fetchOne(db)
      #expect(row?.0 == 44)
      #expect(row?.1 == 354.25)
      #expect(row?.2 == 699)
      #expect(Set(row?.3?.split(separator: "|") ?? []) == ["Cable", "Novel"])
    }
  }

  @Test(arguments: TestDialect.all) func groupConcatPerGroup(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .leftJoin(Item.all) { $0.id.eq($1.categoryID) }
        .group(by: \.id)
        .order(by: \.id)
        .select { ($0.name, $1.title.groupConcat(separator: ", "), $1.title.groupConcat(distinct: true)) }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Electronics", "Books", "Garden"])
      #expect(rows.map { $0.1.map { Set($0.components(separatedBy: ", ")) } } == [["Cable", "Phone"], ["Atlas", "Novel"], nil])
      #expect(rows[2].2 == nil)
    }
  }

  @Test(arguments: TestDialect.all) func countOfALeftJoinedTableCountsOnlyMatches(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let counts = try await Category.group(by: \.id).leftJoin(Item.all) { $0.id.eq($1.categoryID) }
        .order(by: \.id)
        .select { $1.count() }
        .fetchAll(db)
      #expect(counts == [2, 2, 0])
    }
  }
}
