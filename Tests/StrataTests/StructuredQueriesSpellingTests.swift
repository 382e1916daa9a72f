import Foundation
import Strata
import Testing

/// StructuredQueries' spellings that did not compile in Strata before (issue #23's list), each
/// with the SQL it renders and the rows it returns, with StructuredQueries' meaning.
@Suite struct StructuredQueriesSpellingTests {
  @Test(arguments: TestDialect.all) func findTakesASubqueryOfKeys(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.find(Item.where { $0.price > 40 }.select(\.id)).select(\.title)
      expectSQL(
        query,
        #"SELECT "items"."title" FROM "items" WHERE "items"."id" IN (SELECT "items"."id" FROM "items" WHERE "items"."price" > 40.0)"#)
      #expect(try await query.fetchAll(db) == ["Phone", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func findAfterASelectOfSeveralColumns(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let one = Item.select { ($0.id, $0.title) }.find(2)
      expectSQL(one, #"SELECT "items"."id", "items"."title" FROM "items" WHERE "items"."id" = 2"#)
      #expect(try await one.fetchAll(db).map(\.1) == ["Cable"])
      let several = Item.select { ($0.id, $0.title) }.find([2, 4])
      #expect(try await several.fetchAll(db).map(\.1) == ["Cable", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func findAndKeyPathWhereOnUpdatesAndDeletes(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let update = Item.update { $0.quantity = 0 }.find(2).where(\.isActive)
      expectSQL(update, #"UPDATE "items" SET "quantity" = 0 WHERE ("items"."id" = 2) AND "items"."isActive""#)
      let delete = Item.delete().find([3, 4]).where(\.isActive)
      expectSQL(delete, #"DELETE FROM "items" WHERE ("items"."id" IN (3, 4)) AND "items"."isActive""#)
      try await update.execute(db)
      try await delete.execute(db)
      let rows = try await Item.order(by: \.id).select { ($0.title, $0.quantity) }.fetchAll(db)
      // Novel is not active, so it stays; Atlas is, so it goes.
      #expect(rows.map(\.0) == ["Phone", "Cable", "Novel", "Mystery box"])
      #expect(rows.map(\.1) == [3, 0, 7, 1])
    }
  }

  @Test(arguments: TestDialect.all) func leadingDotWhereInOrAndAnd(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { $0.price > 100 }.or(.where(\.isActive).and(.where { $0.quantity.eq(0) })).select(\.title)
      expectSQL(
        query,
        #"SELECT "items"."title" FROM "items" WHERE ("items"."price" > 100.0) OR ("items"."isActive" AND ("items"."quantity" = 0))"#)
      #expect(try await query.fetchAll(db) == ["Phone", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func coalescingAScalarSubquery(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category.order(by: \.id).select { category in
        Item.where { $0.categoryID.eq(category.id) }.select { $0.price.max() } ?? 0
      }
      expectSQL(
        query,
        #"SELECT coalesce((SELECT max("items"."price") FROM "items" WHERE "items"."categoryID" = "categories"."id"), 0.0) FROM "categories" ORDER BY "categories"."id""#)
      #expect(try await query.fetchAll(db) == [699, 45, 0])
    }
  }

  @Test(arguments: TestDialect.all) func aSwiftArrayContainsAColumn(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { [1, 3, 5].contains($0.id) }.select(\.title)
      expectSQL(query, #"SELECT "items"."title" FROM "items" WHERE "items"."id" IN (1, 3, 5)"#)
      #expect(try await query.fetchAll(db) == ["Phone", "Novel", "Mystery box"])
      // Swift's own `contains` is untouched.
      #expect([1, 3, 5].contains(3))
    }
  }

  @Test(arguments: TestDialect.all) func castToAnOptionalAndAnUnlabeledGroupConcatSeparator(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let cast = Item.order(by: \.id).select { $0.priority.cast(as: String?.self) }
      expectSQL(cast, #"SELECT CAST("items"."priority" AS TEXT) FROM "items" ORDER BY "items"."id""#)
      #expect(try await cast.fetchAll(db) == ["3", "1", nil, "2", nil])
      let titles = Item.where { $0.categoryID.eq(2) }.select { $0.title.groupConcat(" & ") }
      expectSQL(titles, #"SELECT group_concat("items"."title", ' & ') FROM "items" WHERE "items"."categoryID" = 2"#)
      #expect(try await titles.fetchOne(db) == .some("Novel & Atlas"))
    }
  }

  @Test(arguments: TestDialect.all) func insertOfWholeRowsWithValuesAndAnUpsertThatReadsTheExistingRow(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      try await Category.insert { $0 } values: { Category(id: 10, name: "Toys") }.execute(db)
      let upsert = Category.insert { ($0.id, $0.name) } values: { (10, "Games") } onConflictDoUpdate: {
        $0.name = $0.name + " and games"
      }
      expectSQL(
        upsert,
        #"INSERT INTO "categories" ("id", "name") VALUES (10, 'Games') ON CONFLICT DO UPDATE SET "name" = "categories"."name" || ' and games'"#)
      // An upsert without a conflict target is SQLite's; PostgreSQL refuses it before it is sent.
      guard dialect == .sqlite else {
        await #expect(throws: DialectError.self) { try await upsert.execute(db) }
        return
      }
      try await upsert.execute(db)
      #expect(try await Category.find(10).select(\.name).fetchOne(db) == "Toys and games")
    }
  }

  @Test(arguments: TestDialect.all) func aRemainderIsOptional(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      #expect(try await Item.find(1).select { $0.quantity % 0 }.fetchOne(db) == .some(nil))
    }
  }
}

extension StructuredQueriesSpellingTests {
  @Test(arguments: TestDialect.all) func aSelectionSelectedBeforeAJoin(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      // The joined statement's selection is appended, as in StructuredQueries.
      let query = Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .join(Comment.select(\.body)) { $0.id.eq($1.id) }
      expectSQL(
        query,
        #"SELECT "employees"."id" AS "id", "employees"."name" AS "name", "comments"."body" FROM "employees" JOIN "comments" ON "employees"."id" = "comments"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0.name) == ["Ada", "Grace", "Linus", "Ken"])
      #expect(rows.map(\.1) == ["Root", "Reply", "Nested", "Other"])
      let left = try await Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .leftJoin(Comment.select(\.body)) { $0.id.eq($1.parentID) }
        .fetchAll(db)
      #expect(left.map(\.1) == ["Reply", "Nested", nil, nil])
      let right = try await Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .rightJoin(Comment.select(\.body)) { $0.id.eq($1.id) && $0.id <= 2 }
        .fetchAll(db)
      #expect(right.map { $0.0?.name } == ["Ada", "Grace", nil, nil])
      let full = try await Employee.select { WellPaidEmployee.Columns(id: $0.id, name: $0.name) }
        .fullJoin(Comment.select(\.body)) { $0.id.eq($1.id) && $0.id <= 2 }
        .fetchAll(db)
      // Linus and Ken match no comment here, and comments 3 and 4 no employee.
      #expect(full.count == 6)
      #expect(full.filter { $0.0 == nil }.map(\.1) == ["Nested", "Other"])
      // A single column still joins as a tuple of one.
      let ids = try await Employee.select(\.id).join(Comment.select(\.body)) { $0.id.eq($1.id) }.fetchAll(db)
      #expect(ids.map(\.1) == ["Root", "Reply", "Nested", "Other"])
    }
  }
}

extension StructuredQueriesSpellingTests {
  /// SQLite's JSON functions, which PostgreSQL refuses before anything is sent.
  @Test func aSelectionFieldHoldsRowsAggregatedAsJSON() async throws {
    try await TestDialect.sqlite.database(seeding: catalogRows()) { db throws in
      let query = Category.group(by: \.id).leftJoin(Item.all) { $0.id.eq($1.categoryID) }.order(by: \.id)
        .select { CategoryWithItems.Columns(name: $0.name, items: $1.jsonGroupArray()) }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.name) == ["Electronics", "Books", "Garden"])
      #expect(rows.map { $0.items.map(\.title).sorted() } == [["Cable", "Phone"], ["Atlas", "Novel"], []])
    }
  }
}
