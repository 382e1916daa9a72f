import Foundation
import Strata
import Testing

/// StructuredQueries' spellings that did not compile in Strata before (issue #23's list), each
/// with the SQL it renders and the rows it returns, with StructuredQueries' meaning.
@Suite struct StructuredQueriesSpellingTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  @Test func findTakesASubqueryOfKeys() throws {
    let query = Item.find(Item.where { $0.price > 40 }.select(\.id)).select(\.title)
    expectSQL(
      query,
      #"SELECT "items"."title" FROM "items" WHERE "items"."id" IN (SELECT "items"."id" FROM "items" WHERE "items"."price" > 40.0)"#)
    #expect(try database.read { try query.fetchAll($0) } == ["Phone", "Atlas"])
  }

  @Test func findAfterASelectOfSeveralColumns() throws {
    let one = Item.select { ($0.id, $0.title) }.find(2)
    expectSQL(one, #"SELECT "items"."id", "items"."title" FROM "items" WHERE "items"."id" = 2"#)
    #expect(try database.read { try one.fetchAll($0) }.map(\.1) == ["Cable"])
    let several = Item.select { ($0.id, $0.title) }.find([2, 4])
    #expect(try database.read { try several.fetchAll($0) }.map(\.1) == ["Cable", "Atlas"])
  }

  @Test func findAndKeyPathWhereOnUpdatesAndDeletes() throws {
    let update = Item.update { $0.quantity = 0 }.find(2).where(\.isActive)
    expectSQL(update, #"UPDATE "items" SET "quantity" = 0 WHERE ("items"."id" = 2) AND "items"."isActive""#)
    let delete = Item.delete().find([3, 4]).where(\.isActive)
    expectSQL(delete, #"DELETE FROM "items" WHERE ("items"."id" IN (3, 4)) AND "items"."isActive""#)
    try database.write { db in
      try update.execute(db)
      try delete.execute(db)
    }
    let rows = try database.read { try Item.order(by: \.id).select { ($0.title, $0.quantity) }.fetchAll($0) }
    // Novel is not active, so it stays; Atlas is, so it goes.
    #expect(rows.map(\.0) == ["Phone", "Cable", "Novel", "Mystery box"])
    #expect(rows.map(\.1) == [3, 0, 7, 1])
  }

  @Test func leadingDotWhereInOrAndAnd() throws {
    let query = Item.where { $0.price > 100 }.or(.where(\.isActive).and(.where { $0.quantity.eq(0) })).select(\.title)
    expectSQL(
      query,
      #"SELECT "items"."title" FROM "items" WHERE ("items"."price" > 100.0) OR ("items"."isActive" AND ("items"."quantity" = 0))"#)
    #expect(try database.read { try query.fetchAll($0) } == ["Phone", "Atlas"])
  }

  @Test func coalescingAScalarSubquery() throws {
    let query = Category.order(by: \.id).select { category in
      Item.where { $0.categoryID.eq(category.id) }.select { $0.price.max() } ?? 0
    }
    expectSQL(
      query,
      #"SELECT coalesce((SELECT max("items"."price") FROM "items" WHERE "items"."categoryID" = "categories"."id"), 0.0) FROM "categories" ORDER BY "categories"."id""#)
    #expect(try database.read { try query.fetchAll($0) } == [699, 45, 0])
  }

  @Test func aSwiftArrayContainsAColumn() throws {
    let query = Item.where { [1, 3, 5].contains($0.id) }.select(\.title)
    expectSQL(query, #"SELECT "items"."title" FROM "items" WHERE "items"."id" IN (1, 3, 5)"#)
    #expect(try database.read { try query.fetchAll($0) } == ["Phone", "Novel", "Mystery box"])
    // Swift's own `contains` is untouched.
    #expect([1, 3, 5].contains(3))
  }

  @Test func castToAnOptionalAndAnUnlabeledGroupConcatSeparator() throws {
    let cast = Item.order(by: \.id).select { $0.notes.cast(as: Int?.self) }
    expectSQL(cast, #"SELECT CAST("items"."notes" AS INTEGER) FROM "items" ORDER BY "items"."id""#)
    #expect(try database.read { try cast.fetchAll($0) } == [0, nil, 0, nil, nil])
    let titles = Item.where { $0.categoryID.eq(2) }.select { $0.title.groupConcat(" & ") }
    expectSQL(titles, #"SELECT group_concat("items"."title", ' & ') FROM "items" WHERE "items"."categoryID" = 2"#)
    #expect(try database.read { try titles.fetchOne($0) } == .some("Novel & Atlas"))
  }

  @Test func insertOfWholeRowsWithValuesAndAnUpsertThatReadsTheExistingRow() throws {
    try database.write { db in
      try Category.insert { $0 } values: { Category(id: 10, name: "Toys") }.execute(db)
      let upsert = Category.insert { ($0.id, $0.name) } values: { (10, "Games") } onConflictDoUpdate: {
        $0.name = $0.name + " and games"
      }
      expectSQL(
        upsert,
        #"INSERT INTO "categories" ("id", "name") VALUES (10, 'Games') ON CONFLICT DO UPDATE SET "name" = "categories"."name" || ' and games'"#)
      try upsert.execute(db)
    }
    #expect(try database.read { try Category.find(10).select(\.name).fetchOne($0) } == "Toys and games")
  }

  @Test func aRemainderIsOptional() throws {
    #expect(try database.read { try Item.find(1).select { $0.quantity % 0 }.fetchOne($0) } == .some(nil))
  }
}

extension StructuredQueriesSpellingTests {
  @Test func aSelectionSelectedBeforeAJoin() throws {
    let database = try organizationDatabase()
    // The joined statement's selection is appended, as in StructuredQueries.
    let query = Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
      .join(Comment.select(\.body)) { $0.id.eq($1.id) }
    expectSQL(
      query,
      #"SELECT "employees"."id" AS "id", "employees"."name" AS "name", "comments"."body" FROM "employees" JOIN "comments" ON "employees"."id" = "comments"."id""#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0.name) == ["Ada", "Grace", "Linus", "Ken"])
    #expect(rows.map(\.1) == ["Root", "Reply", "Nested", "Other"])
    let left = try database.read { db in
      try Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .leftJoin(Comment.select(\.body)) { $0.id.eq($1.parentID) }
        .fetchAll(db)
    }
    #expect(left.map(\.1) == ["Reply", "Nested", nil, nil])
    let right = try database.read { db in
      try Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .rightJoin(Comment.select(\.body)) { $0.id.eq($1.id) && $0.id <= 2 }
        .fetchAll(db)
    }
    #expect(right.map { $0.0?.name } == ["Ada", "Grace", nil, nil])
    let full = try database.read { db in
      try Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .fullJoin(Comment.select(\.body)) { $0.id.eq($1.id) && $0.id <= 2 }
        .fetchAll(db)
    }
    // Linus and Ken match no comment here, and comments 3 and 4 no employee.
    #expect(full.count == 6)
    #expect(full.filter { $0.0 == nil }.map(\.1) == ["Nested", "Other"])
    // A single column still joins as a tuple of one.
    let ids = try database.read { try Employee.select(\.id).join(Comment.select(\.body)) { $0.id.eq($1.id) }.fetchAll($0) }
    #expect(ids.map(\.1) == ["Root", "Reply", "Nested", "Other"])
  }
}

extension StructuredQueriesSpellingTests {
  @Test func aSelectionFieldHoldsRowsAggregatedAsJSON() throws {
    let query = Category.group(by: \.id).leftJoin(Item.all) { $0.id.eq($1.categoryID) }.order(by: \.id)
      .select { CategoryWithItems.Columns(name: $0.name, items: $1.jsonGroupArray()) }
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.name) == ["Electronics", "Books", "Garden"])
    #expect(rows.map { $0.items.map(\.title).sorted() } == [["Cable", "Phone"], ["Atlas", "Novel"], []])
  }
}
