import Foundation
import Strata
import Testing

/// Statements built once with parameters: the SQL is the builder's own, each run binds its
/// values, and the writes are checked and run as any other statement's.
@Suite struct PreparedStatementTests {
  @Test(arguments: TestDialect.all) func aFindRendersOnceAndBindsEachRunsKey(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let itemByID = try PreparedStatement(Int.self) { id in Item.find(id).select { ($0.title, $0.price) } }
      let third = itemByID(3)
      #expect(third.queryFragment.sql == Item.find(3).select { ($0.title, $0.price) }.queryFragment.sql)
      #expect(third.queryFragment.sql == #"SELECT "items"."title", "items"."price" FROM "items" WHERE "items"."id" = ?"#)
      #expect(third.queryFragment.bindings == [.integer(3)])
      #expect(
        try itemByID(1).statements(for: .postgreSQL).map(\.sql)
          == [#"SELECT "items"."title", "items"."price" FROM "items" WHERE "items"."id" = $1"#])
      #expect(try await third.fetchOne(db).map { "\($0.0) \($0.1)" } == "Novel 15.0")
      #expect(try await itemByID(1).fetchOne(db).map { "\($0.0) \($0.1)" } == "Phone 699.0")
      #expect(try await itemByID(99).fetchOne(db) == nil)
    }
  }

  @Test(arguments: TestDialect.all) func wholeRowsDecodeAsTheStatementsTables(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let item = try PreparedStatement(Int.self) { id in Item.find(id) }
      #expect(try await item(2).fetchOne(db)?.title == "Cable")
      let itemsOfCategory = try PreparedStatement(String.self) { name in
        Category.where { $0.name.eq(name) }.leftJoin(Item.all) { $0.id.eq($1.categoryID) }.order { $1.id }
      }
      let rows = try await itemsOfCategory("Books").fetchAll(db)
      #expect(rows.map { "\($0.0.name) \($0.1?.title ?? "-")" } == ["Books Novel", "Books Atlas"])
      #expect(try await itemsOfCategory("Garden").fetchAll(db).map { "\($0.0.name) \($0.1?.title ?? "-")" } == ["Garden -"])
      // A page whose limit and offset each run gives.
      let page = try PreparedStatement(Int.self, Int.self) { count, offset in
        Item.order(by: \.id).limit({ _ in count }, offset: { _ in offset })
      }
      #expect(page(2, 1).queryFragment.sql.hasSuffix(#"ORDER BY "items"."id" LIMIT ? OFFSET ?"#))
      #expect(try await page(2, 1).fetchAll(db).map(\.id) == [2, 3])
      #expect(try await page(3, 3).fetchAll(db).map(\.id) == [4, 5])
      // The closure form takes any expression of an `Int`: a subquery's count, in a join too.
      let asManyAsCategories = Item.join(Category.all) { $0.categoryID.eq($1.id) }
        .order { item, _ in item.id }
        .limit { _, _ in Category.where { $0.name.neq("Garden") }.select { $0.count() } }
        .select { item, _ in item.title }
      #expect(asManyAsCategories.queryFragment.sql.hasSuffix(#"LIMIT (SELECT count("categories"."id") FROM "categories" WHERE "categories"."name" <> ?)"#))
      #expect(try await asManyAsCategories.fetchAll(db) == ["Phone", "Cable"])
    }
  }

  @Test(arguments: TestDialect.all) func aParameterUsedTwiceAndBesideTheStatementsOwnValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      // `least` is bound twice, the 2 and "Mystery box" are the statement's own values.
      let cheaperItems = try PreparedStatement(Double.self, String.self) { least, pattern in
        Item
          .where { $0.price.gt(least) && $0.price.lt(least * 2) }
          .where { $0.title.like(pattern) || $0.title.eq("Mystery box") }
          .order(by: \.id)
          .select(\.title)
      }
      let run = cheaperItems(10, "N%")
      #expect(
        run.queryFragment.sql == #"""
          SELECT "items"."title" FROM "items" WHERE (("items"."price" > ?) AND ("items"."price" < (? * ?))) \#
          AND (("items"."title" LIKE ?) OR ("items"."title" = ?)) ORDER BY "items"."id"
          """#)
      #expect(run.queryFragment.bindings == [.real(10), .real(10), .real(2), .text("N%"), .text("Mystery box")])
      #expect(try await run.fetchAll(db) == ["Novel"])
      #expect(try await cheaperItems(15, "N%").fetchAll(db) == ["Mystery box"])
      #expect(try await cheaperItems(30, "At%").fetchAll(db) == ["Atlas"])
      #expect(try await cheaperItems(5, "Ca%").fetchAll(db) == ["Cable"])
    }
  }

  @Test(arguments: TestDialect.all) func anUpdateAndADeleteByKeyWriteEachRunsValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let restock = try PreparedStatement(Int.self, Int.self) { id, count in
        Item.find(id).update { $0.quantity += count; $0.isActive = true }
      }
      #expect(
        restock(4, 10).queryFragment.sql
          == #"UPDATE "items" SET "quantity" = "items"."quantity" + ?, "isActive" = ? WHERE "items"."id" = ?"#)
      try await restock(4, 10).execute(db)
      try await restock(3, 1).execute(db)
      try await restock(4, 2).execute(db)
      let remove = try PreparedStatement(Int.self) { id in Item.find(id).delete() }
      try await remove(5).execute(db)
      try await remove(5).execute(db)
      let rows = try await Item.order(by: \.id).select { ($0.id, $0.quantity, $0.isActive) }.fetchAll(db)
      #expect(rows.map { "\($0.0):\($0.1):\($0.2)" } == ["1:3:true", "2:40:true", "3:8:true", "4:12:true"])
    }
  }

  @Test(arguments: TestDialect.all) func aParametersValueIsCheckedWhereItIsWritten(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let reprice = try PreparedStatement(Int.self, Double.self) { id, price in Item.find(id).update { $0.price = price } }
      switch dialect {
      case .sqlite:
        // SQLite would store NaN as NULL: refused before anything runs, naming the column.
        await #expect {
          try await reprice(1, .nan).execute(db)
        } throws: { error in
          "\(error)".hasPrefix(#""items"."price" cannot hold NaN"#)
        }
        #expect(try await Item.find(1).select(\.price).fetchOne(db) == 699)
      case .postgreSQL:
        try await reprice(1, .nan).execute(db)
        #expect(try await Item.find(1).select(\.price).fetchOne(db)?.isNaN == true)
      }
      try await reprice(2, 12.25).execute(db)
      #expect(try await Item.find(2).select(\.price).fetchOne(db) == 12.25)
    }
  }

  @Test(arguments: TestDialect.all) func joinsSubqueriesAndOptionalParameters(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let titlesInCategory = try PreparedStatement(Int?.self) { category in
        Item.join(Category.all) { $0.categoryID.eq($1.id) }
          .where { item, _ in item.categoryID.is(category) }
          .order { item, _ in item.id }
          .select { item, category in (category.name, item.title) }
      }
      #expect(try await titlesInCategory(2).fetchAll(db).map { "\($0.0)/\($0.1)" } == ["Books/Novel", "Books/Atlas"])
      #expect(try await titlesInCategory(nil).fetchAll(db).isEmpty)
      let categoriesWithItemsOver = try PreparedStatement(Double.self) { price in
        Category.where { $0.id.in(Item.where { $0.price.gt(price) }.select(\.categoryID)) }.order(by: \.id).select(\.name)
      }
      #expect(try await categoriesWithItemsOver(100).fetchAll(db) == ["Electronics"])
      #expect(try await categoriesWithItemsOver(10).fetchAll(db) == ["Electronics", "Books"])
    }
  }

  @Test func aParameterWrittenIntoSQLTextIsRefused() throws {
    // A view is SQL text, which SQLite keeps without parameters: the value would be frozen in it.
    #expect {
      _ = try PreparedStatement(String.self) { title in
        TodoWithList.createTemporaryView(
          as: Todo.join(TodoList.all) { $0.todoListID.eq($1.id) }
            .where { $1.title.neq(title) }
            .select { TodoWithList.Columns(todoTitle: $0.title, todoListTitle: $1.title) })
      }
    } throws: { error in
      "\(error)".hasPrefix("a parameter of the prepared statement is written into its SQL text")
    }
  }

  @Test func oneStatementRunsOnSeveralDatabasesAndTasksAtOnce() async throws {
    let itemTitle = try PreparedStatement(Int.self) { id in Item.find(id).select(\.title) }
    let renamed = try PreparedStatement(Int.self, String.self) { id, title in Item.find(id).update { $0.title = title } }
    // An in-memory database, and a file's pool whose readers run beside each other.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("strata-prepared-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let databases = [try testDatabase(), try testDatabase(.file(path), pooled: true)]
    for database in databases { try await catalogRows().execute(TestDatabase(engine: .sqlite(database))) }
    try await databases[1].write { try renamed(1, "Handset").execute($0) }
    let titles = try await withThrowingTaskGroup(of: (Int, Int, String?).self) { group in
      for (index, database) in databases.enumerated() {
        for id in 1...5 {
          group.addTask { (index, id, try await database.read { try itemTitle(id).fetchOne($0) }) }
        }
      }
      return try await group.reduce(into: [String: String]()) { $0["\($1.0):\($1.1)"] = $1.2 }
    }
    #expect(titles["0:1"] == "Phone" && titles["1:1"] == "Handset")
    #expect(titles["0:4"] == "Atlas" && titles["1:4"] == "Atlas")
    #expect(titles.count == 10)
  }

  @Test func aParameterTheStatementDoesNotBindIsRefused() throws {
    #expect {
      _ = try PreparedStatement(Int.self, String.self) { id, _ in Item.find(id) }
    } throws: { error in
      "\(error)".hasPrefix("parameter 2 of the prepared statement is not bound where the statement uses it")
    }
    #expect {
      _ = try PreparedStatement(String.self) { title in
        Item.insert { Item.Draft(title: "a", createdAt: .now); Item.Draft(title: "b", createdAt: .now) }
      }
    } throws: { error in
      "\(error)".hasPrefix("a statement that may run in several pieces")
    }
  }

  @Test(arguments: TestDialect.all) func anUpsertReturningItsRowsWithEachRunsValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let restock = try PreparedStatement(Int.self, String.self, Int.self) { id, title, count in
        Item.insert {
          ($0.id, $0.title, $0.quantity, $0.createdAt)
        } values: {
          (id, title, count, referenceDate)
        } onConflictDoUpdate: {
          $0.quantity += $1.quantity
        }
        .returning { ($0.id, $0.title, $0.quantity) }
      }
      #expect(
        restock(2, "Cable", 5).queryFragment.sql == #"""
          INSERT INTO "items" ("id", "title", "quantity", "createdAt") SELECT * FROM (VALUES (?, ?, ?, ?)) WHERE 1 \#
          ON CONFLICT DO UPDATE SET "quantity" = "items"."quantity" + "excluded"."quantity" \#
          RETURNING "items"."id", "items"."title", "items"."quantity"
          """#)
      switch dialect {
      case .sqlite:
        let updated = try #require(try await restock(2, "Cable", 5).fetchOne(db))
        #expect("\(updated.0) \(updated.1) \(updated.2)" == "2 Cable 45")
        let added = try #require(try await restock(10, "Lamp", 3).fetchOne(db))
        #expect("\(added.0) \(added.1) \(added.2)" == "10 Lamp 3")
        #expect(try await Item.order(by: \.id).select(\.quantity).fetchAll(db) == [3, 45, 7, 0, 1, 3])
      case .postgreSQL:
        // An upsert without a conflict target is SQLite's: refused by name before it runs, as
        // the same statement built on each call is.
        await #expect {
          try await restock(2, "Cable", 5).fetchOne(db)
        } throws: { error in
          "\(error)".contains("ON CONFLICT DO UPDATE without a conflict target, which only SQLite has")
        }
        #expect(try await Item.find(2).select(\.quantity).fetchOne(db) == 40)
      }
    }
  }

  @Test(arguments: TestDialect.all) func aStatementThatRunsNothingRunsNothingWhateverItsValues(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let nothing = try PreparedStatement(Int.self) { id in Item.none.where { $0.id.eq(id) }.update { $0.quantity = id } }
      #expect(nothing(1).isEmpty)
      try await nothing(1).execute(db)
      #expect(try await Item.find(1).select(\.quantity).fetchOne(db) == 3)
    }
  }

  @Test(arguments: TestDialect.all) func aStatementWithoutParametersIsRenderedOnce(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let active = try PreparedStatement { Item.where(\.isActive).order(by: \.id).select(\.title) }
      #expect(active().queryFragment.sql == #"SELECT "items"."title" FROM "items" WHERE "items"."isActive" ORDER BY "items"."id""#)
      #expect(try await active().fetchAll(db) == ["Phone", "Cable", "Atlas", "Mystery box"])
    }
  }
}
