import Foundation
import Strata
import Testing

/// Generated columns: the database computes them; they are read like any column, absent from
/// drafts, and never written by inserts, whole-row updates or upserts.
@Suite struct GeneratedColumnTests {
  let database: any DatabaseWriter

  init() throws {
    database = try testDatabase()
  }

  @Test func insertedDraftsAreComputedAndReadBack() throws {
    let insert = LineItem.insert { LineItem.Draft(name: "pen", price: 1.5, quantity: 4) }
    expectSQL(insert, #"INSERT INTO "lineItems" ("id", "name", "price", "quantity") VALUES (NULL, 'pen', 1.5, 4)"#)
    try database.write { db in try insert.execute(db) }
    let item = try #require(try database.read { try LineItem.find(1).fetchOne($0) })
    #expect(item.total == 6)
    #expect(item.shout == "PEN")
    // Filters and order read them like any column.
    let query = LineItem.where { $0.total > 5 }.order { $0.total.desc() }.select(\.shout)
    #expect(try database.read { try query.fetchAll($0) } == ["PEN"])
  }

  @Test func aGeneratedColumnHasATypeUpdatesCannotAssign() throws {
    // `Updates` assigns `TableColumn`s only, so `update { $0.total = 0 }` does not compile.
    #expect(type(of: LineItem.columns.total) == GeneratedColumn<LineItem, Double>.self)
    #expect(LineItem.TableColumns.writableColumnNames == ["id", "name", "price", "quantity"])
    // Under an alias too.
    let query = LineItem.as(Other.self).where { $0.total > 1 }.select(\.shout)
    expectSQL(query, #"SELECT "Other"."shout" FROM "lineItems" AS "Other" WHERE "Other"."total" > 1.0"#)
  }

  @Test func wholeRowsAreWrittenWithoutTheirGeneratedColumns() throws {
    try database.write { db in
      try LineItem.insert { LineItem(id: 7, name: "ink", price: 2, quantity: 3, total: 0, shout: "ignored") }.execute(db)
      var item = try #require(try LineItem.find(7).fetchOne(db))
      #expect((item.total, item.shout) == (6, "INK"))
      item.quantity = 10
      let update = LineItem.update(item)
      expectSQL(update, #"UPDATE "lineItems" SET "name" = 'ink', "price" = 2.0, "quantity" = 10 WHERE "lineItems"."id" = 7"#)
      try update.execute(db)
      try LineItem.upsert { LineItem(id: 7, name: "ink", price: 3, quantity: 10, total: 0, shout: "") }.execute(db)
    }
    let item = try #require(try database.read { try LineItem.find(7).fetchOne($0) })
    #expect((item.total, item.shout) == (30, "INK"))
  }
}

private enum Other: AliasName {}
