import Foundation
import Strata
import Testing

/// Issue #43's spellings and the builder's former gaps, each with its SQL (SQLite's as built,
/// PostgreSQL's as rendered) and its rows on both databases.
@Suite struct StructuredQueriesParityTests {
  func postgreSQL(_ statement: some QueryStatement) throws -> String {
    try statement.queryFragment.rendered(for: .postgreSQL).sql
  }

  @Test(arguments: TestDialect.all) func chainedSelectsInClosureForm(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select { $0.id }.select { $0.title }
      expectSQL(query, #"SELECT "items"."id", "items"."title" FROM "items" ORDER BY "items"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.1) == ["Phone", "Cable", "Novel", "Atlas", "Mystery box"])
      // Then several, and a key path after a closure.
      let more = try await Item.order(by: \.id).select { $0.id }.select { ($0.title, $0.quantity) }.limit(1).fetchOne(db)
      #expect(more?.2 == 3)
      let keyPaths = try await Item.order(by: \.id).select { $0.id }.select(\.title).limit(1).fetchOne(db)
      #expect(keyPaths?.1 == "Phone")
      // Returned from a generic closure, as a helper that builds statements would.
      func built<S: SelectStatement>(_ build: () -> S) -> S { build() }
      let fromClosure = built { Item.order(by: \.id).select(\.id).select(\.title) }
      #expect(try await fromClosure.fetchAll(db).count == 5)
    }
  }

  @Test(arguments: TestDialect.all) func staticColumnAccess(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.where { _ in sql("\(Item.price) > \(40.0)", as: Bool.self) }.order(by: \.id).select(\.title)
      expectSQL(query, #"SELECT "items"."title" FROM "items" WHERE "items"."price" > 40.0 ORDER BY "items"."id""#)
      #expect(try await query.fetchAll(db) == ["Phone", "Atlas"])
      // The same value as through `columns`, and a type's own static members stay its own.
      #expect(Item.title == Item.columns.title)
      #expect(try await Item.all.fetchCount(db) == 5)
      // `sql(…)` typed by its place, as `#sql` is.
      let upper = Item.find(1).update { $0.title = sql("upper(\(Item.title))") }
      expectSQL(upper, #"UPDATE "items" SET "title" = upper("items"."title") WHERE "items"."id" = 1"#)
      try await upper.execute(db)
      #expect(try await Item.find(1).select(\.title).fetchOne(db) == "PHONE")
    }
  }

  @Test(arguments: TestDialect.all) func rowValueComparisons(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let inSubquery = Item.order(by: \.id).where {
        RowValue($0.categoryID, $0.title).in(Item.where { $0.price > 40 }.select { ($0.categoryID, $0.title) })
      }.select(\.title)
      expectSQL(
        inSubquery,
        #"SELECT "items"."title" FROM "items" WHERE ("items"."categoryID", "items"."title") IN (SELECT "items"."categoryID", "items"."title" FROM "items" WHERE "items"."price" > 40.0) ORDER BY "items"."id""#)
      #expect(try await inSubquery.fetchAll(db) == ["Phone", "Atlas"])

      let inList = Item.order(by: \.id).where { RowValue($0.categoryID, $0.title).in([RowValue(1, "Cable"), RowValue(2, "Atlas"), RowValue(2, "Cable")]) }
        .select(\.title)
      expectSQL(
        inList,
        #"SELECT "items"."title" FROM "items" WHERE ("items"."categoryID", "items"."title") IN (VALUES (1, 'Cable'), (2, 'Atlas'), (2, 'Cable')) ORDER BY "items"."id""#)
      #expect(
        try postgreSQL(inList)
          == #"SELECT "items"."title" FROM "items" WHERE ("items"."categoryID", "items"."title") IN (VALUES ($1, $2), ($3, $4), ($5, $6)) ORDER BY "items"."id""#)
      #expect(try await inList.fetchAll(db) == ["Cable", "Atlas"])
      #expect(try await Item.where { RowValue($0.categoryID, $0.title).in([]) }.fetchCount(db) == 0)

      // Keyset paging: the rows after (price 20, id 5), by price then id.
      let page = Item.where { RowValue($0.price, $0.id) > RowValue(20.0, 5) }.order { ($0.price, $0.id) }.select(\.title)
      expectSQL(
        page,
        #"SELECT "items"."title" FROM "items" WHERE ("items"."price", "items"."id") > (20.0, 5) ORDER BY "items"."price", "items"."id""#)
      #expect(try await page.fetchAll(db) == ["Atlas", "Phone"])
      #expect(try await Item.where { RowValue($0.price, $0.title).eq(RowValue(15.0, "Novel")) }.fetchCount(db) == 1)
    }
  }

  @Test(arguments: TestDialect.all) func namedWindowsAndFrameExclusions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .where { $0.categoryID.isNot(nil) }
        .window("byCategory") { WindowDefinition(partitionBy: $0.categoryID, orderBy: $0.price.desc()) }
        .order(by: \.id)
        .select { ($0.title, rank().over("byCategory"), $0.quantity.sum().over("byCategory")) }
      expectSQL(
        query,
        #"SELECT "items"."title", rank() OVER "byCategory", sum("items"."quantity") OVER "byCategory" FROM "items" WHERE "items"."categoryID" IS NOT NULL WINDOW "byCategory" AS (PARTITION BY "items"."categoryID" ORDER BY "items"."price" DESC) ORDER BY "items"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Phone", "Cable", "Novel", "Atlas"])
      #expect(rows.map(\.1) == [1, 2, 2, 1])
      #expect(rows.map(\.2) == [3, 43, 7, 0])

      // The other items' quantities in the category: the whole partition, less the current row.
      let others = Item
        .where { $0.categoryID.isNot(nil) }
        .order(by: \.id)
        .select {
          $0.quantity.sum().over(
            partitionBy: $0.categoryID, orderBy: $0.id,
            frame: .rows(from: .unboundedPreceding, to: .unboundedFollowing, exclude: .currentRow))
        }
      expectSQL(
        others,
        #"SELECT sum("items"."quantity") OVER (PARTITION BY "items"."categoryID" ORDER BY "items"."id" ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM "items" WHERE "items"."categoryID" IS NOT NULL ORDER BY "items"."id""#)
      #expect(try await others.fetchAll(db) == [40, 3, 0, 7])
      let ties = Item.order(by: \.id).select {
        $0.id.count().over(orderBy: $0.isActive, frame: .groups(from: .currentRow, to: .currentRow, exclude: .ties))
      }
      #expect(try await ties.fetchAll(db) == [1, 1, 1, 1, 1])
    }
  }

  @Test(arguments: TestDialect.all) func jsonEditingFunctions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let set = Item.find(1).select { $0.tags.jsonSet("$[0]", "z") }
      expectSQL(set, #"SELECT json_set("items"."tags", '$[0]', 'z') FROM "items" WHERE "items"."id" = 1"#)
      #expect(try postgreSQL(set) == #"SELECT jsonb_set("items"."tags", ARRAY['0'], to_jsonb($1)) FROM "items" WHERE "items"."id" = $2"#)
      #expect(try await set.fetchOne(db) == ["z", "sale"])
      #expect(try await Item.find(1).select { $0.tags.jsonSet("$[2]", "x") }.fetchOne(db) == ["new", "sale", "x"])
      #expect(try await Item.find(1).select { $0.tags.jsonReplace("$[5]", "q") }.fetchOne(db) == ["new", "sale"])
      #expect(try await Item.find(1).select { $0.tags.jsonReplace("$[1]", "q") }.fetchOne(db) == ["new", "q"])
      #expect(try await Item.find(1).select { $0.tags.jsonInsert("$[1]", "q") }.fetchOne(db) == ["new", "sale"])
      #expect(try await Item.find(1).select { $0.tags.jsonInsert("$[2]", "q") }.fetchOne(db) == ["new", "sale", "q"])
      let remove = Item.find(1).select { $0.tags.jsonRemove("$[0]") }
      expectSQL(remove, #"SELECT json_remove("items"."tags", '$[0]') FROM "items" WHERE "items"."id" = 1"#)
      #expect(try postgreSQL(remove) == #"SELECT ("items"."tags" #- ARRAY['0']) FROM "items" WHERE "items"."id" = $1"#)
      #expect(try await remove.fetchOne(db) == ["sale"])

      // Chained, in an update, with a value from another column: the edit is the statement's.
      try await Item.update { $0.tags = $0.tags.jsonSet("$[0]", $0.title).jsonRemove("$[1]") }.where { $0.id <= 2 }.execute(db)
      let tags = try await Item.where { $0.id <= 2 }.order(by: \.id).select(\.tags).fetchAll(db)
      #expect(tags == [["Phone"], ["Cable"]])

      // A path PostgreSQL cannot take is refused there before anything is sent, naming it.
      let appended = Item.find(2).select { $0.tags.jsonSet("$[#]", "more") }
      if dialect == .postgreSQL {
        #expect(throws: DialectError.self) { try postgreSQL(appended) }
      } else {
        #expect(try await appended.fetchOne(db) == ["Cable", "more"])
      }
    }
  }

  @Test func jsonObjectsKeysAndPatchesOnSQLite() throws {
    let database = try openDatabase(.inMemory)
    try database.read { db throws in
      let object = SQLQuery<JSONRepresentation<[String: Int]>>(raw: #"'{"a":1,"b":{"c":2}}'"#)
      #expect(try sql("SELECT \(object.jsonSet("$.b.c", 3))", as: String.self).fetchOne(db) == #"{"a":1,"b":{"c":3}}"#)
      #expect(try sql("SELECT \(object.jsonSet(#"$."a key""#, 4))", as: String.self).fetchOne(db) == #"{"a":1,"b":{"c":2},"a key":4}"#)
      let flags = SQLQuery<JSONRepresentation<[String: Bool]>>(raw: #"'{}'"#)
      // A Boolean is JSON's true, not SQLite's 1.
      #expect(try sql("SELECT \(flags.jsonSet("$.on", true))", as: String.self).fetchOne(db) == #"{"on":true}"#)
      let patched = object.jsonPatch(SQLQuery<JSONRepresentation<[String: Int]>>(raw: #"'{"a":null,"d":5}'"#))
      expectSQL(Values(patched), #"SELECT json_patch('{"a":1,"b":{"c":2}}', '{"a":null,"d":5}')"#)
      #expect(try sql("SELECT \(patched)", as: String.self).fetchOne(db) == #"{"b":{"c":2},"d":5}"#)
      #expect(throws: DialectError.self) { try Values(patched).queryFragment.rendered(for: .postgreSQL) }
    }
  }

  @Test(arguments: TestDialect.all) func updateFromAnotherTable(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let update = Item.update(from: Category.self) { item, category in item.notes = category.name + ": " + item.title }
        .where { item, category in item.categoryID.eq(category.id) }
        .where { item, _ in item.isActive }
      expectSQL(
        update,
        #"UPDATE "items" SET "notes" = ("categories"."name" || ': ') || "items"."title" FROM "categories" WHERE ("items"."categoryID" = "categories"."id") AND "items"."isActive""#)
      try await update.execute(db)
      let notes = try await Item.order(by: \.id).select(\.notes).fetchAll(db)
      // Novel is not active, and the mystery box has no category: both keep their notes.
      #expect(notes == ["Electronics: Phone", "Electronics: Cable", "Paperback", "Books: Atlas", nil])
    }
  }

  @Test(arguments: TestDialect.all) func insertValuesOfExpressions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let insert = Item.insert { ($0.title, $0.categoryID, $0.createdAt) } values: {
        ("Trowel", Category.select(\.id).where { $0.name.eq("Garden") }, sql("\(referenceDate)", as: Date.self))
      }
      expectSQL(
        insert,
        #"INSERT INTO "items" ("title", "categoryID", "createdAt") VALUES ('Trowel', (SELECT "categories"."id" FROM "categories" WHERE "categories"."name" = 'Garden'), '2025-01-02 03:04:05.678')"#)
      try await insert.execute(db)
      let trowel = try await Item.where { $0.title.eq("Trowel") }.select { ($0.categoryID, $0.price) }.fetchOne(db)
      #expect(trowel?.0 == 3)
      #expect(trowel?.1 == 0)
    }
  }

  @Test func insertValuesOfATriggersNewRow() throws {
    let database = try catalogDatabase()
    try database.write { db in
      try Category.createTemporaryTrigger(
        after: .insert { new in
          Item.insert { ($0.title, $0.categoryID, $0.isActive, $0.createdAt) } values: {
            (new.name + " starter", new.id, false, sql("\(referenceDate)", as: Date.self))
          }
        }
      ).execute(db)
      try Category.insert { Category.Draft(name: "Toys") }.execute(db)
      let row = try Item.where { $0.title.eq("Toys starter") }.select { ($0.categoryID, $0.isActive) }.fetchOne(db)
      #expect(row?.0 == 1)
      #expect(row?.1 == false)
    }
  }

  @Test func touchWithADateOfYourOwn() throws {
    let database = try catalogDatabase()
    try database.write { db in
      try seedCatalog(db)
      let trigger = Item.createTemporaryTrigger(after: .update(touch: \.dueDate, date: sql("'2030-01-01 00:00:00.000'", as: Date?.self)))
      #expect(trigger.queryFragment.description.contains(#"UPDATE "items" SET "dueDate" = '2030-01-01 00:00:00.000' WHERE "items"."rowid" = "new"."rowid""#))
      try trigger.execute(db)
      try Item.find(2).update { $0.quantity = 1 }.execute(db)
      let dates = try Item.order(by: \.id).select(\.dueDate).fetchAll(db)
      #expect(dates[1] == Date(timeIntervalSince1970: 1_893_456_000))
      #expect(dates[0] == nil)
    }
  }
}
