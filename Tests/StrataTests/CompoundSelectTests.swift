import Foundation
import Strata
import Testing

/// Compound selects, `Values` and `EXISTS`.
@Suite struct CompoundSelectTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  func fetch<Value: QueryRepresentable>(_ statement: some SelectStatement<Value>) throws -> [Value.QueryOutput] {
    try database.read { try statement.fetchAll($0) }
  }

  @Test func unionAndUnionAll() throws {
    let names = Tag.where { $0.id <= 2 }.select(\.name).union(Tag.where { $0.id >= 2 }.select(\.name))
    #expect(
      names.queryFragment.sql == """
        SELECT "tags"."name" FROM "tags" WHERE "tags"."id" <= ? \
        UNION SELECT "tags"."name" FROM "tags" WHERE "tags"."id" >= ?
        """)
    #expect(try fetch(names).sorted() == ["gift", "new", "sale", "used"])
    let all = Tag.where { $0.id <= 2 }.select(\.name).union(all: true, Tag.where { $0.id >= 2 }.select(\.name))
    #expect(all.queryFragment.sql.contains(" UNION ALL "))
    #expect(try fetch(all).sorted() == ["gift", "new", "sale", "sale", "used"])
  }

  @Test func intersectAndExceptOfTuplesAndRows() throws {
    let onSale = ItemTag.where { $0.tagID.eq(2) }.select { ($0.itemID, $0.tagID) }
    let ofPhone = ItemTag.where { $0.itemID.eq(1) }.select { ($0.itemID, $0.tagID) }
    let both = try database.read { try onSale.intersect(ofPhone).fetchAll($0) }
    #expect(both.map(\.0) == [1])
    #expect(both.map(\.1) == [2])

    let expensive = Item.where { $0.price > 40 }
    let active = Item.where(\.isActive)
    let inactiveOrCheap = Item.all.except(expensive.intersect(active).union(Item.none))
    // SQLite reads compound operators left to right: the right-hand compound is a subquery.
    #expect(inactiveOrCheap.queryFragment.sql.contains(#"FROM "items" EXCEPT SELECT * FROM (SELECT"#))
    #expect(try fetch(inactiveOrCheap).map(\.title).sorted() == ["Cable", "Mystery box", "Novel"])
  }

  @Test func anOrderedOperandBecomesASubquery() throws {
    let cheapest = Item.order(by: \.price).limit(1).select(\.title)
    let query = cheapest.union(Category.select(\.name))
    #expect(
      query.queryFragment.sql.hasPrefix(
        #"SELECT * FROM (SELECT "items"."title" FROM "items" ORDER BY "items"."price" LIMIT ?) UNION SELECT"#))
    #expect(try fetch(query).sorted() == ["Books", "Cable", "Electronics", "Garden"])
  }

  @Test func valuesSelectsARowWithoutATable() throws {
    let one = Values(1, "one")
    #expect(one.queryFragment.sql == "SELECT ?, ?")
    let row = try database.read { try one.fetchOne($0) }
    #expect(row?.0 == 1)
    #expect(row?.1 == "one")
    let ids = Values(0).union(Item.where { $0.price > 40 }.select(\.id))
    #expect(try fetch(ids) == [0, 1, 4])
  }

  @Test func existsAndScalarSubqueries() throws {
    let tagged = Item.where { item in ItemTag.where { $0.itemID.eq(item.id) }.exists() }
    #expect(
      tagged.queryFragment.sql.hasSuffix(
        #"WHERE EXISTS (SELECT "itemTags"."itemID", "itemTags"."tagID" FROM "itemTags" WHERE "itemTags"."itemID" = "items"."id")"#))
    #expect(try database.read { try tagged.select(\.title).fetchAll($0) } == ["Phone", "Cable", "Atlas"])
    let flags = try database.read { try Values(Tag.exists(), Tag.where { $0.name.eq("none") }.exists()).fetchOne($0) }
    #expect(flags?.0 == true)
    #expect(flags?.1 == false)

    let withTagCounts = Item.order(by: \.id).select { item in
      (item.title, ItemTag.where { $0.itemID.eq(item.id) }.count())
    }
    let rows = try database.read { try withTagCounts.fetchAll($0) }
    #expect(rows.map(\.1) == [2, 1, 0, 1, 0])
  }
}
