import Foundation
import Strata
import Testing

/// Inserts, upserts, updates and deletes: the SQL each renders and its effect on the rows.
@Suite struct WriteTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  func categoryNames() throws -> [String] {
    try database.read { try Category.order(by: \.id).select { $0.name }.fetchAll($0) }
  }

  @Test func insertSeveralRowsOfDraftsAndValues() throws {
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
    try database.write { try insert.execute($0) }
    #expect(try categoryNames() == ["Electronics", "Books", "Garden", "Tools", "Games", "Toys", "Music", "Last"])
    #expect(try database.read { try Category.find(10).fetchOne($0)?.name } == "Games")
  }

  @Test func insertAnArrayOfRows() throws {
    let drafts = (1...3).map { Tag.Draft(name: "tag \($0)") }
    try database.write { try Tag.insert { drafts }.execute($0) }
    #expect(try database.read { try Tag.where { $0.name.hasPrefix("tag ") }.fetchCount($0) } == 3)
  }

  @Test func insertOfNoRowsDoesNothing() throws {
    let insert = Category.insert { [Category.Draft]() }
    #expect(insert.isEmpty)
    #expect(insert.queryFragment.sql.isEmpty)
    try database.write { try insert.execute($0) }
    #expect(try categoryNames().count == 3)
  }

  @Test func insertReturning() throws {
    let insert = Category.insert { Category.Draft(name: "Tools") }.returning { ($0.id, $0.name) }
    #expect(insert.queryFragment.sql.hasSuffix(#"RETURNING "categories"."id", "categories"."name""#))
    let row = try database.write { try insert.fetchOne($0) }
    #expect(row?.0 == 4)
    #expect(row?.1 == "Tools")
    let whole = try database.write { db in
      try Category.insert { Category.Draft(name: "A"); Category.Draft(name: "B") }
        .returning { $0 }
        .fetchAll(db)
    }
    #expect(whole.map(\.id) == [5, 6])
    #expect(whole.map(\.name) == ["A", "B"])
  }

  @Test func insertOrIgnoreAndOrReplace() throws {
    let ignore = Category.insert(or: .ignore) { Category(id: 1, name: "Ignored") }
    #expect(ignore.queryFragment.sql.hasPrefix(#"INSERT OR IGNORE INTO "categories""#))
    try database.write { try ignore.execute($0) }
    #expect(try categoryNames().first == "Electronics")
    try database.write { try Category.insert(or: .replace) { Category(id: 1, name: "Replaced") }.execute($0) }
    #expect(try categoryNames().first == "Replaced")
  }

  @Test func upsertUpdatesExistingRowsAndInsertsNewOnes() throws {
    let upsert = Category.upsert {
      Category(id: 2, name: "Comics")
      Category.Draft(name: "Pets")
    }
    #expect(
      upsert.queryFragment.description == """
        INSERT INTO "categories" ("id", "name") VALUES (2, 'Comics'), (NULL, 'Pets') \
        ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name"
        """)
    try database.write { try upsert.execute($0) }
    #expect(try categoryNames() == ["Electronics", "Comics", "Garden", "Pets"])
  }

  @Test func upsertOfAUUIDKeyedDraftWithoutIDInserts() throws {
    let database = try scorekeeperDatabase()
    try database.write(seedScorekeeper)
    try database.write { db in
      try Game.upsert { Game.Draft(title: "New") }.execute(db)
      try Game.upsert { Game.Draft(id: UUID(1), title: "Renamed") }.execute(db)
    }
    let titles = try database.read { try Game.order(by: \.title).select { $0.title }.fetchAll($0) }
    #expect(titles == ["Mahjong with grandma", "New", "Renamed", "Weekly poker night"])
    #expect(try database.read { try Player.where { $0.gameID.eq(UUID(1)) }.fetchCount($0) } == 3)
  }

  @Test func insertOnConflictDoNothingAndDoUpdate() throws {
    try database.write { db in
      try sql(#"CREATE UNIQUE INDEX "tags_name" ON "tags"("name")"#).execute(db)
    }
    let nothing = Tag.insert { Tag.Draft(name: "new") } onConflict: { $0.name }
    #expect(nothing.queryFragment.sql.hasSuffix(#"ON CONFLICT ("name") DO NOTHING"#))
    try database.write { try nothing.execute($0) }
    #expect(try database.read { try Tag.fetchCount($0) } == 4)

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
    try database.write { try update.execute($0) }
    let cable = try database.read { try Item.find(2).fetchOne($0) }
    #expect(cable?.quantity == 45)
    #expect(cable?.price == 12)
    #expect(cable?.categoryID == 1)
  }

  @Test func updateWithCompoundAssignmentsToggleAndNil() throws {
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
    try database.write { try update.execute($0) }
    let items = try database.read { try Item.where { $0.categoryID.eq(1) }.order(by: \.id).fetchAll($0) }
    #expect(items.map(\.title) == ["Phone!", "Cable!"])
    #expect(items.map(\.quantity) == [2, 39])
    #expect(items.map(\.price) == [1398, 19])
    #expect(items.map(\.isActive) == [false, false])
    #expect(items.map(\.notes) == [nil, nil])
    #expect(items.map(\.priority) == [.medium, .medium])
  }

  @Test func updateAssignsValuesExpressionsAndOtherColumns() throws {
    let name = "Renamed"
    try database.write { db in
      try Category.find(1).update { $0.name = name }.execute(db)
      try Category.find(2).update { $0.name = $0.name.upper() }.execute(db)
      try Item.find(3).update { $0.notes = $0.title }.execute(db)
      try Item.find(4).update { $0.quantity = $0.quantity + 10 }.execute(db)
      try Item.find(5).update { $0.dueDate = referenceDate; $0.tags = ["x"] }.execute(db)
    }
    #expect(try categoryNames().prefix(2) == ["Renamed", "BOOKS"])
    let items = try database.read { try Item.find([3, 4, 5]).order(by: \.id).fetchAll($0) }
    #expect(items[0].notes == "Novel")
    #expect(items[1].quantity == 10)
    #expect(items[2].dueDate == referenceDate)
    #expect(items[2].tags == ["x"])
  }

  @Test func successiveAssignmentsCompose() throws {
    let update = Item.find(1).update {
      $0.quantity += 1
      $0.quantity *= 10
    }
    #expect(update.queryFragment.sql.contains(#""quantity" = ("items"."quantity" + ?) * ?"#))
    try database.write { try update.execute($0) }
    #expect(try database.read { try Item.find(1).select { $0.quantity }.fetchOne($0) } == 40)
  }

  @Test func updateOfAWholeRowByPrimaryKey() throws {
    var phone = try #require(try database.read { try Item.find(1).fetchOne($0) })
    phone.title = "Smartphone"
    phone.tags = []
    phone.dueDate = referenceDate
    let update = Item.update(phone)
    #expect(update.queryFragment.sql.hasPrefix(#"UPDATE "items" SET "categoryID" = ?, "title" = ?,"#))
    #expect(update.queryFragment.sql.hasSuffix(#"WHERE "items"."id" = ?"#))
    try database.write { try update.execute($0) }
    let reread = try database.read { try Item.find(1).fetchOne($0) }
    #expect(reread?.title == "Smartphone")
    #expect(reread?.tags == [])
    #expect(reread?.dueDate == referenceDate)
    #expect(try database.read { try Item.find(2).fetchOne($0)?.title } == "Cable")
  }

  @Test func updateReturningTheUpdatedRows() throws {
    let rows = try database.write { db in
      try Item.where { $0.price < 20 }.update { $0.price += 1 }.returning { ($0.title, $0.price) }.fetchAll(db)
    }
    #expect(rows.map(\.0).sorted() == ["Cable", "Novel"])
    #expect(rows.map(\.1).sorted() == [10.5, 16])
    let one = try database.write { db in
      try Item.update { $0.quantity = 0 }.returning { $0.id }.fetchOne(db)
    }
    #expect(one != nil)
    #expect(try database.read { try Item.where { $0.quantity.neq(0) }.fetchCount($0) } == 0)
  }

  @Test func updateOfOrderedLimitedRowsMatchesThemByRowid() throws {
    let update = Item.order { $0.price.desc() }.limit(2).update { $0.isActive = false }
    #expect(
      update.queryFragment.sql.hasSuffix("""
        WHERE "items"."rowid" IN (SELECT "items"."rowid" FROM "items" ORDER BY "items"."price" DESC LIMIT ?)
        """))
    try database.write { try update.execute($0) }
    let inactive = try database.read {
      try Item.where { !$0.isActive }.order(by: \.id).select { $0.title }.fetchAll($0)
    }
    #expect(inactive == ["Phone", "Novel", "Atlas"])
  }

  @Test func deleteFilteredAllAndByRow() throws {
    let delete = Item.where { $0.quantity.eq(0) }.delete()
    #expect(delete.queryFragment.description == #"DELETE FROM "items" WHERE "items"."quantity" = 0"#)
    try database.write { try delete.execute($0) }
    #expect(try database.read { try Item.fetchCount($0) } == 4)

    let cable = try #require(try database.read { try Item.find(2).fetchOne($0) })
    try database.write { try Item.delete(cable).execute($0) }
    #expect(try database.read { try Item.find(2).fetchOne($0) } == nil)

    try database.write { try Item.delete().execute($0) }
    #expect(try database.read { try Item.fetchCount($0) } == 0)
    #expect(Item.delete().queryFragment.sql == #"DELETE FROM "items""#)
  }

  @Test func deleteReturningAndForeignKeyActions() throws {
    let deleted = try database.write { db in
      try Category.find(1).delete().returning { $0.name }.fetchAll(db)
    }
    #expect(deleted == ["Electronics"])
    let orphans = try database.read { try Item.where { $0.categoryID.is(nil) }.fetchCount($0) }
    #expect(orphans == 3)
  }

  @Test func deleteLimitedRows() throws {
    try database.write { try Item.order(by: \.price).limit(1).delete().execute($0) }
    #expect(try database.read { try Item.find(2).fetchOne($0) } == nil)
    #expect(try database.read { try Item.fetchCount($0) } == 4)
  }
}
