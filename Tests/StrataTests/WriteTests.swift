import Foundation
import Strata
import Testing

/// Inserts, upserts, updates and deletes: the SQL each renders and its effect on the rows.
@Suite struct WriteTests {
  func categoryNames(_ db: TestDatabase) async throws -> [String] {
    try await Category.order(by: \.id).select { $0.name }.fetchAll(db)
  }

  @Test(arguments: TestDialect.all) func insertSeveralRowsOfDraftsAndValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let extra = ["Toys", "Music"]
      let insert = Category.insert {
        Category.Draft(name: "Tools")
        Category(id: 10, name: "Games")
        for name in extra { Category.Draft(name: name) }
        if extra.isEmpty { Category.Draft(name: "never") } else { Category.Draft(name: "Last") }
      }
      #expect(
        insert.queryFragment.description == """
          INSERT INTO "categories" ("id", "name") VALUES (NULL, 'Tools'), (10, 'Games'), \
          (NULL, 'Toys'), (NULL, 'Music'), (NULL, 'Last')
          """)
      try await insert.execute(db)
      // SQLite gives a new row the key after the largest; PostgreSQL's identity takes the next
      // number of its sequence, which a key written by hand does not move.
      #expect(
        try await categoryNames(db) == (dialect == .sqlite
          ? ["Electronics", "Books", "Garden", "Tools", "Games", "Toys", "Music", "Last"]
          : ["Electronics", "Books", "Garden", "Tools", "Toys", "Music", "Last", "Games"]))
      #expect(try await Category.find(10).fetchOne(db)?.name == "Games")
    }
  }

  @Test(arguments: TestDialect.all) func insertAnArrayOfRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let drafts = (1...3).map { Tag.Draft(name: "tag \($0)") }
      try await Tag.insert { drafts }.execute(db)
      #expect(try await Tag.where { $0.name.hasPrefix("tag ") }.fetchCount(db) == 3)
    }
  }

  @Test(arguments: TestDialect.all) func insertOfNoRowsDoesNothing(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let insert = Category.insert { [Category.Draft]() }
      #expect(insert.isEmpty)
      #expect(insert.queryFragment.sql.isEmpty)
      try await insert.execute(db)
      #expect(try await categoryNames(db).count == 3)
    }
  }

  @Test(arguments: TestDialect.all) func insertReturning(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let insert = Category.insert { Category.Draft(name: "Tools") }.returning { ($0.id, $0.name) }
      #expect(insert.queryFragment.sql.hasSuffix(#"RETURNING "categories"."id", "categories"."name""#))
      let row = try await insert.fetchOne(db)
      #expect(row?.0 == 4)
      #expect(row?.1 == "Tools")
      let whole = try await Category.insert { Category.Draft(name: "A"); Category.Draft(name: "B") }
        .returning { $0 }
        .fetchAll(db)
      #expect(whole.map(\.id) == [5, 6])
      #expect(whole.map(\.name) == ["A", "B"])
    }
  }

  @Test(arguments: TestDialect.all) func insertOrIgnoreAndOrReplace(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let ignore = Category.insert(or: .ignore) { Category(id: 1, name: "Ignored") }
      #expect(ignore.queryFragment.sql.hasPrefix(#"INSERT OR IGNORE INTO "categories""#))
      // `INSERT OR …` is SQLite's; PostgreSQL refuses it before it is sent.
      guard dialect == .sqlite else {
        await #expect(throws: DialectError.self) { try await ignore.execute(db) }
        return
      }
      try await ignore.execute(db)
      #expect(try await categoryNames(db).first == "Electronics")
      try await Category.insert(or: .replace) { Category(id: 1, name: "Replaced") }.execute(db)
      #expect(try await categoryNames(db).first == "Replaced")
    }
  }

  @Test(arguments: TestDialect.all) func upsertUpdatesExistingRowsAndInsertsNewOnes(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let upsert = Category.upsert {
        Category(id: 2, name: "Comics")
        Category.Draft(name: "Pets")
      }
      #expect(
        upsert.queryFragment.description == """
          INSERT INTO "categories" ("id", "name") VALUES (2, 'Comics'), (NULL, 'Pets') \
          ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name"
          """)
      try await upsert.execute(db)
      #expect(try await categoryNames(db) == ["Electronics", "Comics", "Garden", "Pets"])
    }
  }

  @Test(arguments: TestDialect.all) func upsertOfAUUIDKeyedDraftWithoutIDInserts(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      try await Game.upsert { Game.Draft(title: "New") }.execute(db)
      try await Game.upsert { Game.Draft(id: UUID(1), title: "Renamed") }.execute(db)
      let titles = try await Game.order(by: \.title).select { $0.title }.fetchAll(db)
      #expect(titles == ["Mahjong with grandma", "New", "Renamed", "Weekly poker night"])
      #expect(try await Player.where { $0.gameID.eq(UUID(1)) }.fetchCount(db) == 3)
    }
  }

  @Test(arguments: TestDialect.all) func insertOnConflictDoNothingAndDoUpdate(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      try await sql(#"CREATE UNIQUE INDEX "tags_name" ON "tags"("name")"#).execute(db)
      let nothing = Tag.insert { Tag.Draft(name: "new") } onConflict: { $0.name }
      #expect(nothing.queryFragment.sql.hasSuffix(#"ON CONFLICT ("name") DO NOTHING"#))
      try await nothing.execute(db)
      #expect(try await Tag.fetchCount(db) == 4)

      let update = Item.insert {
        Item(id: 2, title: "Cable", price: 12, quantity: 5, createdAt: referenceDate)
      } onConflict: {
        $0.id
      } doUpdate: {
        $0.quantity += $1.quantity
        $0.price = $1.price
      }
      #expect(
        update.queryFragment.sql.hasSuffix("""
          ON CONFLICT ("id") DO UPDATE SET "quantity" = "items"."quantity" + "excluded"."quantity", \
          "price" = "excluded"."price"
          """))
      try await update.execute(db)
      let cable = try await Item.find(2).fetchOne(db)
      #expect(cable?.quantity == 45)
      #expect(cable?.price == 12)
      #expect(cable?.categoryID == 1)
    }
  }

  @Test(arguments: TestDialect.all) func updateWithCompoundAssignmentsToggleAndNil(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let update = Item.where { $0.categoryID.eq(1) }.update {
        $0.quantity -= 1
        $0.price *= 2
        $0.title += "!"
        $0.isActive.toggle()
        $0.notes = nil
        $0.priority = .medium
      }
      #expect(
        update.queryFragment.description == """
          UPDATE "items" SET "quantity" = "items"."quantity" - 1, "price" = "items"."price" * 2.0, \
          "title" = "items"."title" || '!', "isActive" = NOT "items"."isActive", "notes" = NULL, \
          "priority" = 2 WHERE "items"."categoryID" = 1
          """)
      try await update.execute(db)
      let items = try await Item.where { $0.categoryID.eq(1) }.order(by: \.id).fetchAll(db)
      #expect(items.map(\.title) == ["Phone!", "Cable!"])
      #expect(items.map(\.quantity) == [2, 39])
      #expect(items.map(\.price) == [1398, 19])
      #expect(items.map(\.isActive) == [false, false])
      #expect(items.map(\.notes) == [nil, nil])
      #expect(items.map(\.priority) == [.medium, .medium])
    }
  }

  @Test(arguments: TestDialect.all) func updateAssignsValuesExpressionsAndOtherColumns(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let name = "Renamed"
      try await Category.find(1).update { $0.name = name }.execute(db)
      try await Category.find(2).update { $0.name = $0.name.upper() }.execute(db)
      try await Item.find(3).update { $0.notes = $0.title }.execute(db)
      try await Item.find(4).update { $0.quantity = $0.quantity + 10 }.execute(db)
      try await Item.find(5).update { $0.dueDate = referenceDate; $0.tags = ["x"] }.execute(db)
      #expect(try await categoryNames(db).prefix(2) == ["Renamed", "BOOKS"])
      let items = try await Item.find([3, 4, 5]).order(by: \.id).fetchAll(db)
      #expect(items[0].notes == "Novel")
      #expect(items[1].quantity == 10)
      #expect(items[2].dueDate == referenceDate)
      #expect(items[2].tags == ["x"])
    }
  }

  /// An update by key is written in one go (`Assignment.updateByKey`), unless an assigned value
  /// is spelled differently by PostgreSQL (`<<` shifts by an `integer` there), which the
  /// general path places: the same statement either way, in each dialect, and the same rows.
  @Test(arguments: TestDialect.all) func anUpdateByKeyWithAndWithoutADialectsOwnSpelling(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let plain = Item.find(2).update { $0.quantity += 5; $0.title = "Cord" }
      let shifted = Item.find(2).update { $0.quantity = $0.quantity << 2; $0.title = "Cord" }
      #expect(plain.queryFragment.sql == #"UPDATE "items" SET "quantity" = "items"."quantity" + ?, "title" = ? WHERE "items"."id" = ?"#)
      #expect(shifted.queryFragment.sql == #"UPDATE "items" SET "quantity" = "items"."quantity" << ?, "title" = ? WHERE "items"."id" = ?"#)
      #expect(
        try plain.queryFragment.rendered(for: .postgreSQL).sql
          == #"UPDATE "items" SET "quantity" = "items"."quantity" + $1, "title" = $2 WHERE "items"."id" = $3"#)
      #expect(
        try shifted.queryFragment.rendered(for: .postgreSQL).sql
          == #"UPDATE "items" SET "quantity" = "items"."quantity" << CAST($1 AS integer), "title" = $2 WHERE "items"."id" = $3"#)
      #expect(plain.queryFragment.bindings == [.integer(5), .text("Cord"), .integer(2)])
      #expect(shifted.queryFragment.bindings == [.integer(2), .text("Cord"), .integer(2)])
      let before = try #require(try await Item.find(2).select { $0.quantity }.fetchOne(db))
      try await plain.execute(db)
      try await shifted.execute(db)
      let after = try #require(try await Item.find(2).select { ($0.quantity, $0.title) }.fetchOne(db))
      #expect(after.0 == (before + 5) << 2 && after.1 == "Cord")
    }
  }

  @Test(arguments: TestDialect.all) func successiveAssignmentsCompose(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let update = Item.find(1).update {
        $0.quantity += 1
        $0.quantity *= 10
      }
      #expect(update.queryFragment.sql.contains(#""quantity" = ("items"."quantity" + ?) * ?"#))
      try await update.execute(db)
      #expect(try await Item.find(1).select { $0.quantity }.fetchOne(db) == 40)
    }
  }

  @Test(arguments: TestDialect.all) func updateOfAWholeRowByPrimaryKey(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      var phone = try #require(try await Item.find(1).fetchOne(db))
      phone.title = "Smartphone"
      phone.tags = []
      phone.dueDate = referenceDate
      let update = Item.update(phone)
      #expect(update.queryFragment.sql.hasPrefix(#"UPDATE "items" SET "categoryID" = ?, "title" = ?,"#))
      #expect(update.queryFragment.sql.hasSuffix(#"WHERE "items"."id" = ?"#))
      try await update.execute(db)
      let reread = try await Item.find(1).fetchOne(db)
      #expect(reread?.title == "Smartphone")
      #expect(reread?.tags == [])
      #expect(reread?.dueDate == referenceDate)
      #expect(try await Item.find(2).fetchOne(db)?.title == "Cable")
    }
  }

  @Test(arguments: TestDialect.all) func updateReturningTheUpdatedRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let rows = try await Item.where { $0.price < 20 }.update { $0.price += 1 }.returning { ($0.title, $0.price) }.fetchAll(db)
      #expect(rows.map(\.0).sorted() == ["Cable", "Novel"])
      #expect(rows.map(\.1).sorted() == [10.5, 16])
      let one = try await Item.update { $0.quantity = 0 }.returning { $0.id }.fetchOne(db)
      #expect(one != nil)
      #expect(try await Item.where { $0.quantity.neq(0) }.fetchCount(db) == 0)
    }
  }

  @Test(arguments: TestDialect.all) func updateOfOrderedLimitedRowsMatchesThemByRowid(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let update = Item.order { $0.price.desc() }.limit(2).update { $0.isActive = false }
      #expect(
        update.queryFragment.sql.hasSuffix("""
          WHERE "items"."rowid" IN (SELECT "items"."rowid" FROM "items" ORDER BY "items"."price" DESC LIMIT ?)
          """))
      try await update.execute(db)
      let inactive = try await Item.where { !$0.isActive }.order(by: \.id).select { $0.title }.fetchAll(db)
      #expect(inactive == ["Phone", "Novel", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func deleteFilteredAllAndByRow(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let delete = Item.where { $0.quantity.eq(0) }.delete()
      #expect(delete.queryFragment.description == #"DELETE FROM "items" WHERE "items"."quantity" = 0"#)
      try await delete.execute(db)
      #expect(try await Item.fetchCount(db) == 4)

      let cable = try #require(try await Item.find(2).fetchOne(db))
      try await Item.delete(cable).execute(db)
      #expect(try await Item.find(2).fetchOne(db) == nil)

      try await Item.delete().execute(db)
      #expect(try await Item.fetchCount(db) == 0)
      #expect(Item.delete().queryFragment.sql == #"DELETE FROM "items""#)
    }
  }

  @Test(arguments: TestDialect.all) func deleteReturningAndForeignKeyActions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let deleted = try await Category.find(1).delete().returning { $0.name }.fetchAll(db)
      #expect(deleted == ["Electronics"])
      let orphans = try await Item.where { $0.categoryID.is(nil) }.fetchCount(db)
      #expect(orphans == 3)
    }
  }

  @Test(arguments: TestDialect.all) func deleteLimitedRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      try await Item.order(by: \.price).limit(1).delete().execute(db)
      #expect(try await Item.find(2).fetchOne(db) == nil)
      #expect(try await Item.fetchCount(db) == 4)
    }
  }
}
