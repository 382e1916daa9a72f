import Foundation
import Strata
import Testing

/// `SELECT` statements: each test shows the SQL a query renders and the rows it returns, on
/// SQLite and PostgreSQL.
@Suite struct SelectTests {
  func fetch<From: Table>(_ db: TestDatabase, _ query: Where<From>) async throws -> [From.QueryOutput] {
    try await query.fetchAll(db)
  }

  func fetch<Value: QueryRepresentable, From: Table, Joins>(
    _ db: TestDatabase, _ query: Select<Value, From, Joins>
  ) async throws -> [Value.QueryOutput] {
    try await query.fetchAll(db)
  }

  @Test(arguments: TestDialect.all) func allSelectsEveryColumnInDeclarationOrder(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      #expect(
        Category.all.queryFragment.sql
          == #"SELECT "categories"."id", "categories"."name" FROM "categories""#)
      #expect(try await fetch(db, Category.all).map(\.name) == ["Electronics", "Books", "Garden"])
    }
  }

  @Test(arguments: TestDialect.all) func whereCombinesConditionsWithAnd(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { $0.price > 10 }.where(\.isActive)
      expectSQL(query, #"SELECT \#(itemColumns) FROM "items" WHERE ("items"."price" > 10.0) AND "items"."isActive""#)
      #expect(try await fetch(db, query).map(\.title) == ["Phone", "Atlas", "Mystery box"])
    }
  }

  @Test(arguments: TestDialect.all) func findByKeyAndByKeys(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      expectSQL(Item.find(2), #"SELECT \#(itemColumns) FROM "items" WHERE "items"."id" = 2"#)
      #expect(try await fetch(db, Item.find(2)).map(\.title) == ["Cable"])
      expectSQL(Item.find([1, 3]), #"SELECT \#(itemColumns) FROM "items" WHERE "items"."id" IN (1, 3)"#)
      #expect(try await fetch(db, Item.find([1, 3])).map(\.title) == ["Phone", "Novel"])
      #expect(try await fetch(db, Item.find([Int]())).isEmpty)
    }
  }

  @Test(arguments: TestDialect.all) func orderWithConditionsTuplesAndNulls(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
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
      #expect(try await fetch(db, byPriority(true)).map(\.title) == ["Phone", "Atlas", "Cable", "Mystery box", "Novel"])
      #expect(try await fetch(db, byPriority(false)).map(\.title) == ["Novel", "Mystery box", "Cable", "Atlas", "Phone"])
      #expect(try await fetch(db, Item.order(by: \.price)).map(\.title).first == "Cable")
    }
  }

  @Test(arguments: TestDialect.all) func limitAndOffsetAreBound(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).limit(2, offset: 1)
      expectSQL(query, #"SELECT \#(itemColumns) FROM "items" ORDER BY "items"."id" LIMIT 2 OFFSET 1"#)
      #expect(query.queryFragment.bindings == [.integer(2), .integer(1)])
      #expect(try await fetch(db, query).map(\.id) == [2, 3])
    }
  }

  @Test(arguments: TestDialect.all) func selectOneColumnATupleOrTheWholeTable(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let titles = Item.where { $0.quantity > 5 }.order(by: \.title).select { $0.title }
      #expect(
        titles.queryFragment.sql
          == #"SELECT "items"."title" FROM "items" WHERE "items"."quantity" > ? ORDER BY "items"."title""#)
      #expect(try await fetch(db, titles) == ["Cable", "Novel"])

      let pairs = Item.order(by: \.id).select { ($0.title, $0.price, $0.notes) }
      let rows = try await pairs.fetchAll(db)
      #expect(rows.map(\.0) == ["Phone", "Cable", "Novel", "Atlas", "Mystery box"])
      #expect(rows.map(\.1) == [699, 9.5, 15, 45, 20])
      #expect(rows.map(\.2) == ["Flagship", nil, "Paperback", nil, nil])

      let whole = Item.select { $0 }.limit(1)
      #expect(try await fetch(db, whole).first?.tags == ["new", "sale"])
    }
  }

  @Test(arguments: TestDialect.all) func distinctRemovesDuplicates(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.select { $0.categoryID }.distinct().order(by: \.categoryID)
      expectSQL(query, #"SELECT DISTINCT "items"."categoryID" FROM "items" ORDER BY "items"."categoryID""#)
      #expect(try await fetch(db, query) == [nil, 1, 2])
    }
  }

  @Test(arguments: TestDialect.all) func groupByAndHaving(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
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
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == [1, 2])
      #expect(rows.map(\.1) == [2, 2])
      #expect(rows.map(\.2) == [708.5, 60])
    }
  }

  @Test(arguments: TestDialect.all) func countingTablesAndQueries(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      #expect(Item.count().queryFragment.sql == #"SELECT count(*) FROM "items""#)
      #expect(try await Item.count().fetchOne(db) == 5)
      #expect(try await Item.fetchCount(db) == 5)
      let grouped = Item.group(by: \.categoryID).order(by: \.categoryID)
      #expect(
        grouped.count().queryFragment.sql
          == #"SELECT count(*) FROM "items" GROUP BY "items"."categoryID" ORDER BY "items"."categoryID""#)
      #expect(try await grouped.count().fetchAll(db) == [1, 2, 2])
      expectSQL(
        grouped.countingRows(),
        #"SELECT count(*) FROM (SELECT 1 FROM "items" GROUP BY "items"."categoryID")"#)
      #expect(try await grouped.fetchCount(db) == 3)
      #expect(try await Item.count { $0.isActive }.fetchOne(db) == 4)
      #expect(try await Item.limit(2).fetchCount(db) == 2)
    }
  }

  @Test(arguments: TestDialect.all) func fetchOneReturnsTheFirstRowOrNil(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let first = try await Item.order(by: \.title).fetchOne(db)
      #expect(first?.title == "Atlas")
      let none = try await Item.where { $0.price > 10_000 }.fetchOne(db)
      #expect(none == nil)
      let pair = try await Item.find(1).select { ($0.title, $0.quantity) }.fetchOne(db)
      #expect(pair?.0 == "Phone")
      #expect(pair?.1 == 3)
      // Pairs and triples decode through forms without a parameter pack; four columns through
      // the pack.
      let triple = try await Item.find(1).select { ($0.title, $0.quantity, $0.notes) }.fetchOne(db)
      #expect(triple?.0 == "Phone" && triple?.1 == 3 && triple?.2 == "Flagship")
      let four = try await Item.find(1).select { ($0.id, $0.title, $0.quantity, $0.isActive) }.fetchOne(db)
      #expect(four?.0 == 1 && four?.1 == "Phone" && four?.2 == 3 && four?.3 == true)
      let missing = try await Item.find(99).select { ($0.title, $0.quantity) }.fetchOne(db)
      #expect(missing == nil)
    }
  }

  @Test func cursorDecodesRowsAsItSteps() throws {
    let database = try catalogDatabase()
    try database.write(seedCatalog)
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

  @Test(arguments: TestDialect.all) func subqueryInWhereAndAsAResultColumn(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let expensive = Item.where { $0.price.eq(Item.select { $0.price.max() }) }
      expectSQL(expensive, #"SELECT \#(itemColumns) FROM "items" WHERE "items"."price" = (SELECT max("items"."price") FROM "items")"#)
      #expect(try await fetch(db, expensive).map(\.title) == ["Phone"])

      let inBooks = Item.where {
        $0.categoryID.in(Category.where { $0.name.eq("Books") }.select { $0.id })
      }
      #expect(try await fetch(db, inBooks).map(\.title) == ["Novel", "Atlas"])
    }
  }
}

/// A reusable scope, as the README shows.
extension Where<Item> {
  func active() -> Where<Item> { self.where(\.isActive) }
}

@Suite struct ScopeTests {
  @Test(arguments: TestDialect.all) func scopesComposeOnWhere(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { $0.price > 10 }.active()
      expectSQL(query, #"SELECT \#(itemColumns) FROM "items" WHERE ("items"."price" > 10.0) AND "items"."isActive""#)
      #expect(try await query.fetchCount(db) == 3)
    }
  }
}
