import Foundation
import Strata
import Testing

/// Compound selects, `Values` and `EXISTS`.
@Suite struct CompoundSelectTests {
  func fetch<Value: QueryRepresentable>(_ db: TestDatabase, _ statement: some SelectStatement<Value>) async throws -> [Value.QueryOutput] {
    try await statement.fetchAll(db)
  }

  @Test(arguments: TestDialect.all) func unionAndUnionAll(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let names = Tag.where { $0.id <= 2 }.select(\.name).union(Tag.where { $0.id >= 2 }.select(\.name))
      #expect(
        names.queryFragment.sql == """
          SELECT "tags"."name" FROM "tags" WHERE "tags"."id" <= ? \
          UNION SELECT "tags"."name" FROM "tags" WHERE "tags"."id" >= ?
          """)
      #expect(try await fetch(db, names).sorted() == ["gift", "new", "sale", "used"])
      let all = Tag.where { $0.id <= 2 }.select(\.name).union(all: true, Tag.where { $0.id >= 2 }.select(\.name))
      #expect(all.queryFragment.sql.contains(" UNION ALL "))
      #expect(try await fetch(db, all).sorted() == ["gift", "new", "sale", "sale", "used"])
    }
  }

  @Test(arguments: TestDialect.all) func intersectAndExceptOfTuplesAndRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let onSale = ItemTag.where { $0.tagID.eq(2) }.select { ($0.itemID, $0.tagID) }
      let ofPhone = ItemTag.where { $0.itemID.eq(1) }.select { ($0.itemID, $0.tagID) }
      let both = try await onSale.intersect(ofPhone).fetchAll(db)
      #expect(both.map(\.0) == [1])
      #expect(both.map(\.1) == [2])

      let expensive = Item.where { $0.price > 40 }
      let active = Item.where(\.isActive)
      let inactiveOrCheap = Item.all.except(expensive.intersect(active).union(Item.none))
      // SQLite reads compound operators left to right: the right-hand compound is a subquery.
      #expect(inactiveOrCheap.queryFragment.sql.contains(#"FROM "items" EXCEPT SELECT * FROM (SELECT"#))
      #expect(try await fetch(db, inactiveOrCheap).map(\.title).sorted() == ["Cable", "Mystery box", "Novel"])
    }
  }

  @Test(arguments: TestDialect.all) func anOrderedOperandBecomesASubquery(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let cheapest = Item.order(by: \.price).limit(1).select(\.title)
      let query = cheapest.union(Category.select(\.name))
      #expect(
        query.queryFragment.sql.hasPrefix(
          #"SELECT * FROM (SELECT "items"."title" FROM "items" ORDER BY "items"."price" LIMIT ?) UNION SELECT"#))
      #expect(try await fetch(db, query).sorted() == ["Books", "Cable", "Electronics", "Garden"])
    }
  }

  @Test(arguments: TestDialect.all) func valuesSelectsARowWithoutATable(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let one = Values(1, "one")
      #expect(one.queryFragment.sql == "SELECT ?, ?")
      let row = try await one.fetchOne(db)
      #expect(row?.0 == 1)
      #expect(row?.1 == "one")
      let ids = Values(0).union(Item.where { $0.price > 40 }.select(\.id))
      #expect(try await fetch(db, ids).sorted() == [0, 1, 4])
    }
  }

  @Test(arguments: TestDialect.all) func existsAndScalarSubqueries(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let tagged = Item.where { item in ItemTag.where { $0.itemID.eq(item.id) }.exists() }
      #expect(
        tagged.queryFragment.sql.hasSuffix(
          #"WHERE EXISTS (SELECT "itemTags"."itemID", "itemTags"."tagID" FROM "itemTags" WHERE "itemTags"."itemID" = "items"."id")"#))
      #expect(try await tagged.select(\.title).fetchAll(db) == ["Phone", "Cable", "Atlas"])
      let flags = try await Values(Tag.exists(), Tag.where { $0.name.eq("none") }.exists()).fetchOne(db)
      #expect(flags?.0 == true)
      #expect(flags?.1 == false)

      let withTagCounts = Item.order(by: \.id).select { item in
        (item.title, ItemTag.where { $0.itemID.eq(item.id) }.count())
      }
      let rows = try await withTagCounts.fetchAll(db)
      #expect(rows.map(\.1) == [2, 1, 0, 1, 0])
    }
  }
}
