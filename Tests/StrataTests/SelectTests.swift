import Foundation
import Strata
import Testing

/// `SELECT` statements: each test shows the SQL a query renders and the rows it returns.
@Suite struct SelectTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  func fetch<From: Table>(_ query: Where<From>) throws -> [From.QueryOutput] {
    try database.read { try query.fetchAll($0) }
  }

  func fetch<Value: QueryRepresentable, From: Table, Joins>(
    _ query: Select<Value, From, Joins>
  ) throws -> [Value.QueryOutput] {
    try database.read { try query.fetchAll($0) }
  }

  @Test func allSelectsEveryColumnInDeclarationOrder() throws {
    #expect(
      Category.all.queryFragment.sql
        == #"SELECT "categories"."id", "categories"."name" FROM "categories""#)
    #expect(try fetch(Category.all).map(\.name) == ["Electronics", "Books", "Garden"])
  }

  @Test func whereCombinesConditionsWithAnd() throws {
    let query = Item.where { $0.price > 10 }.where(\.isActive)
    expectSQL(query, #"SELECT \#(itemColumns) FROM "items" WHERE ("items"."price" > 10.0) AND "items"."isActive""#)
    #expect(try fetch(query).map(\.title) == ["Phone", "Atlas", "Mystery box"])
  }

  @Test func findByKeyAndByKeys() throws {
    expectSQL(Item.find(2), #"SELECT \#(itemColumns) FROM "items" WHERE "items"."id" = 2"#)
    #expect(try fetch(Item.find(2)).map(\.title) == ["Cable"])
    expectSQL(Item.find([1, 3]), #"SELECT \#(itemColumns) FROM "items" WHERE "items"."id" IN (1, 3)"#)
    #expect(try fetch(Item.find([1, 3])).map(\.title) == ["Phone", "Novel"])
    #expect(try fetch(Item.find([Int]())).isEmpty)
  }

  @Test func orderWithConditionsTuplesAndNulls() throws {
    func byPriority(_ descending: Bool) -> Where<Item> {
      Item.order {
        if descending {
          ($0.priority.desc(nulls: .last), $0.title)
        } else {
          $0.priority.asc(nulls: .first)
          $0.title.desc()
        }
      }
    }
    expectSQL(
      byPriority(true), #"SELECT \#(itemColumns) FROM "items" ORDER BY "items"."priority" DESC NULLS LAST, "items"."title""#)
    expectSQL(
      byPriority(false),
      #"SELECT \#(itemColumns) FROM "items" ORDER BY "items"."priority" ASC NULLS FIRST, "items"."title" DESC"#)
    #expect(try fetch(byPriority(true)).map(\.title) == ["Phone", "Atlas", "Cable", "Mystery box", "Novel"])
    #expect(try fetch(byPriority(false)).map(\.title) == ["Novel", "Mystery box", "Cable", "Atlas", "Phone"])
    #expect(try fetch(Item.order(by: \.price)).map(\.title).first == "Cable")
  }

  @Test func limitAndOffsetAreBound() throws {
    let query = Item.order(by: \.id).limit(2, offset: 1)
    expectSQL(query, #"SELECT \#(itemColumns) FROM "items" ORDER BY "items"."id" LIMIT 2 OFFSET 1"#)
    #expect(query.queryFragment.bindings == [.integer(2), .integer(1)])
    #expect(try fetch(query).map(\.id) == [2, 3])
  }

  @Test func selectOneColumnATupleOrTheWholeTable() throws {
    let titles = Item.where { $0.quantity > 5 }.order(by: \.title).select { $0.title }
    #expect(
      titles.queryFragment.sql
        == #"SELECT "items"."title" FROM "items" WHERE "items"."quantity" > ? ORDER BY "items"."title""#)
    #expect(try fetch(titles) == ["Cable", "Novel"])

    let pairs = Item.order(by: \.id).select { ($0.title, $0.price, $0.notes) }
    let rows = try database.read { try pairs.fetchAll($0) }
    #expect(rows.map(\.0) == ["Phone", "Cable", "Novel", "Atlas", "Mystery box"])
    #expect(rows.map(\.1) == [699, 9.5, 15, 45, 20])
    #expect(rows.map(\.2) == ["Flagship", nil, "Paperback", nil, nil])

    let whole = Item.select { $0 }.limit(1)
    #expect(try fetch(whole).first?.tags == ["new", "sale"])
  }

  @Test func distinctRemovesDuplicates() throws {
    let query = Item.select { $0.categoryID }.distinct().order(by: \.categoryID)
    expectSQL(query, #"SELECT DISTINCT "items"."categoryID" FROM "items" ORDER BY "items"."categoryID""#)
    #expect(try fetch(query) == [nil, 1, 2])
  }

  @Test func groupByAndHaving() throws {
    let query = Item
      .group(by: \.categoryID)
      .having { $0.count() > 1 }
      .order(by: \.categoryID)
      .select { ($0.categoryID, $0.count(), $0.price.sum()) }
    #expect(
      query.queryFragment.sql == """
        SELECT "items"."categoryID", count("items"."id"), sum("items"."price") FROM "items" \
        GROUP BY "items"."categoryID" HAVING count("items"."id") > ? ORDER BY "items"."categoryID"
        """)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == [1, 2])
    #expect(rows.map(\.1) == [2, 2])
    #expect(rows.map(\.2) == [708.5, 60])
  }

  @Test func countingTablesAndQueries() throws {
    #expect(Item.count().queryFragment.sql == #"SELECT count(*) FROM "items""#)
    #expect(try database.read { try Item.count().fetchOne($0) } == 5)
    #expect(try database.read { try Item.fetchCount($0) } == 5)
    let grouped = Item.group(by: \.categoryID).order(by: \.categoryID)
    #expect(
      grouped.count().queryFragment.sql
        == #"SELECT count(*) FROM "items" GROUP BY "items"."categoryID" ORDER BY "items"."categoryID""#)
    #expect(try database.read { try grouped.count().fetchAll($0) } == [1, 2, 2])
    expectSQL(
      grouped.countingRows(),
      #"SELECT count(*) FROM (SELECT \#(itemColumns) FROM "items" GROUP BY "items"."categoryID" ORDER BY "items"."categoryID")"#)
    #expect(try database.read { try grouped.fetchCount($0) } == 3)
    #expect(try database.read { try Item.count { $0.isActive }.fetchOne($0) } == 4)
    #expect(try database.read { try Item.limit(2).fetchCount($0) } == 2)
  }

  @Test func fetchOneReturnsTheFirstRowOrNil() throws {
    let first = try database.read { try Item.order(by: \.title).fetchOne($0) }
    #expect(first?.title == "Atlas")
    let none = try database.read { try Item.where { $0.price > 10_000 }.fetchOne($0) }
    #expect(none == nil)
    let pair = try database.read { try Item.find(1).select { ($0.title, $0.quantity) }.fetchOne($0) }
    #expect(pair?.0 == "Phone")
    #expect(pair?.1 == 3)
  }

  @Test func cursorDecodesRowsAsItSteps() throws {
    let titles = try database.read { db in
      var titles: [String] = []
      let cursor = try Item.order(by: \.id).fetchCursor(db)
      while let item = try cursor.next() {
        // A query inside the loop may use the same SQL without disturbing the cursor.
        let again = try Item.order(by: \.id).fetchAll(db)
        #expect(again.count == 5)
        titles.append(item.title)
      }
      return titles
    }
    #expect(titles == ["Phone", "Cable", "Novel", "Atlas", "Mystery box"])
  }

  @Test func subqueryInWhereAndAsAResultColumn() throws {
    let expensive = Item.where { $0.price.eq(Item.select { $0.price.max() }) }
    expectSQL(expensive, #"SELECT \#(itemColumns) FROM "items" WHERE "items"."price" = (SELECT max("items"."price") FROM "items")"#)
    #expect(try fetch(expensive).map(\.title) == ["Phone"])

    let inBooks = Item.where {
      $0.categoryID.in(Category.where { $0.name.eq("Books") }.select { $0.id })
    }
    #expect(try fetch(inBooks).map(\.title) == ["Novel", "Atlas"])
  }
}

/// A reusable scope, as the README shows.
extension Where<Item> {
  func active() -> Where<Item> { self.where(\.isActive) }
}

@Suite struct ScopeTests {
  @Test func scopesComposeOnWhere() throws {
    let database = try catalogDatabase()
    try database.write(seedCatalog)
    let query = Item.where { $0.price > 10 }.active()
    expectSQL(query, #"SELECT \#(itemColumns) FROM "items" WHERE ("items"."price" > 10.0) AND "items"."isActive""#)
    #expect(try database.read { try query.fetchCount($0) } == 3)
  }
}
