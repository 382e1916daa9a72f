import Foundation
import Strata
import Testing

/// Joins of every kind: the SQL they render and the rows they return, with optional sides of
/// outer joins decoding as nil.
@Suite struct JoinTests {
  @Test(arguments: TestDialect.all) func innerJoinKeepsMatchedRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .join(Category.all) { $0.categoryID.eq($1.id) }
        .order { ($1.name, $0.title) }
        .select { ($0.title, $1.name) }
      #expect(
        query.queryFragment.sql == """
          SELECT "items"."title", "categories"."name" FROM "items" \
          JOIN "categories" ON "items"."categoryID" = "categories"."id" \
          ORDER BY "categories"."name", "items"."title"
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Atlas", "Novel", "Cable", "Phone"])
      #expect(rows.map(\.1) == ["Books", "Books", "Electronics", "Electronics"])
    }
  }

  @Test(arguments: TestDialect.all) func leftJoinDecodesTheMissingSideAsNil(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .leftJoin(Item.all) { $0.id.eq($1.categoryID) }
        .order { ($0.id, $1.title) }
      let rows: [(Category, Item?)] = try await query.fetchAll(db)
      #expect(rows.map(\.0.name) == ["Electronics", "Electronics", "Books", "Books", "Garden"])
      #expect(rows.map { $0.1?.title } == ["Cable", "Phone", "Atlas", "Novel", nil])
    }
  }

  @Test(arguments: TestDialect.all) func leftJoinedColumnsAreOptional(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .leftJoin(Item.all) { $0.id.eq($1.categoryID) }
        .where { $1.price.is(nil) || $1.price > 40 }
        .order { $0.id }
        .select { ($0.name, $1.title, $1.price) }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Electronics", "Books", "Garden"])
      #expect(rows.map(\.1) == ["Phone", "Atlas", nil])
      #expect(rows.map(\.2) == [699, 45, nil])
    }
  }

  @Test(arguments: TestDialect.all) func conditionsOfTheJoinedStatementGoInTheWhereClause(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .leftJoin(Item.where(\.isActive)) { $0.id.eq($1.categoryID) }
        .group(by: \.id)
        .order(by: \.id)
        .select { ($0.name, $1.count()) }
      #expect(
        query.queryFragment.sql == """
          SELECT "categories"."name", count("items"."id") FROM "categories" \
          LEFT JOIN "items" ON "categories"."id" = "items"."categoryID" \
          WHERE "items"."isActive" GROUP BY "categories"."id" ORDER BY "categories"."id"
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.1) == [2, 1])

      let keepingUnmatched = Category
        .leftJoin(Item.all) { $0.id.eq($1.categoryID) && $1.isActive }
        .group(by: \.id)
        .order(by: \.id)
        .select { ($0.name, $1.count()) }
      #expect(
        keepingUnmatched.queryFragment.sql.contains(
          #"LEFT JOIN "items" ON ("categories"."id" = "items"."categoryID") AND "items"."isActive""#))
      #expect(try await keepingUnmatched.fetchAll(db).map(\.1) == [2, 1, 0])
    }
  }

  @Test(arguments: TestDialect.all) func selectionWithTheLeftTableAsAWholeField(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .group(by: \.id)
        .leftJoin(Item.all) { $0.id.eq($1.categoryID) }
        .order { $0.id }
        .select {
          CategoryStats.Columns(category: $0, itemCount: $1.count(), totalPrice: $1.price.sum())
        }
      #expect(
        query.queryFragment.sql.hasPrefix("""
          SELECT "categories"."id" AS "id", "categories"."name" AS "name", \
          count("items"."id") AS "itemCount", sum("items"."price") AS "totalPrice" FROM "categories"
          """))
      let stats = try await query.fetchAll(db)
      #expect(stats.map(\.category?.name) == ["Electronics", "Books", "Garden"])
      #expect(stats.map(\.itemCount) == [2, 2, 0])
      #expect(stats.map(\.totalPrice) == [708.5, 60, nil])
    }
  }

  @Test(arguments: TestDialect.all) func selectionWithTheRightTableOfALeftJoinAsAnOptionalField(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .leftJoin(Category.all) { $0.categoryID.eq($1.id) }
        .group { ($0.id, $1.id) }
        .order { $0.id }
        .select { CategoryStats.Columns(category: $1, itemCount: $0.count(), totalPrice: $0.price.sum()) }
      let stats = try await query.fetchAll(db)
      #expect(stats.map(\.category?.name) == ["Electronics", "Electronics", "Books", "Books", nil])
    }
  }

  @Test(arguments: TestDialect.all) func rightJoinMakesTheLeftSideOptional(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .rightJoin(Category.all) { $0.categoryID.eq($1.id) }
        .order { ($1.id, $0.title) }
      #expect(query.queryFragment.sql.contains(#"RIGHT JOIN "categories" ON"#))
      let rows: [(Item?, Category)] = try await query.fetchAll(db)
      #expect(rows.map(\.1.name) == ["Electronics", "Electronics", "Books", "Books", "Garden"])
      #expect(rows.map { $0.0?.title } == ["Cable", "Phone", "Atlas", "Novel", nil])
    }
  }

  @Test(arguments: TestDialect.all) func fullJoinKeepsUnmatchedRowsOfBothSides(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .fullJoin(Category.all) { $0.categoryID.eq($1.id) }
        .select { ($0.title, $1.name) }
      #expect(query.queryFragment.sql.contains(#"FULL JOIN "categories" ON"#))
      let rows = try await query.fetchAll(db)
      #expect(rows.count == 6)
      #expect(rows.contains { $0.0 == "Mystery box" && $0.1 == nil })
      #expect(rows.contains { $0.0 == nil && $0.1 == "Garden" })
    }
  }

  @Test(arguments: TestDialect.all) func fourTablesChained(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .join(Item.all) { $0.id.eq($1.categoryID) }
        .join(ItemTag.all) { $1.id.eq($2.itemID) }
        .join(Tag.all) { $2.tagID.eq($3.id) }
        .where { $3.name.eq("sale") || $0.name.eq("Books") }
        .order { ($1.title, $3.name) }
        .select { ($0.name, $1.title, $3.name) }
      #expect(
        query.queryFragment.sql == """
          SELECT "categories"."name", "items"."title", "tags"."name" FROM "categories" \
          JOIN "items" ON "categories"."id" = "items"."categoryID" \
          JOIN "itemTags" ON "items"."id" = "itemTags"."itemID" \
          JOIN "tags" ON "itemTags"."tagID" = "tags"."id" \
          WHERE ("tags"."name" = ?) OR ("categories"."name" = ?) \
          ORDER BY "items"."title", "tags"."name"
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.1) == ["Atlas", "Cable", "Phone"])
      #expect(rows.map(\.2) == ["gift", "sale", "sale"])
    }
  }

  @Test(arguments: TestDialect.all) func fourTablesWithOuterJoinsDecodeWholeRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .leftJoin(Category.all) { $0.categoryID.eq($1.id) }
        .leftJoin(ItemTag.all) { $0.id.eq($2.itemID) }
        .leftJoin(Tag.all) { $2.tagID.eq($3.id) }
        .order { ($0.id, $3.name) }
      let rows: [(Item, Category?, ItemTag?, Tag?)] = try await query.fetchAll(db)
      #expect(rows.map(\.0.title) == ["Phone", "Phone", "Cable", "Novel", "Atlas", "Mystery box"])
      #expect(rows.map { $0.1?.name } == ["Electronics", "Electronics", "Electronics", "Books", "Books", nil])
      #expect(rows.map { $0.3?.name } == ["new", "sale", "sale", nil, "gift", nil])
      #expect(rows[3].2 == nil)
    }
  }

  @Test(arguments: TestDialect.all) func theJoinedStatementsOrderAndLimitApplyToTheWholeQuery(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .order(by: \.name)
        .join(Item.order { $0.price.desc() }.limit(2)) { $0.id.eq($1.categoryID) }
        .select { ($0.name, $1.title) }
      #expect(
        query.queryFragment.sql == """
          SELECT "categories"."name", "items"."title" FROM "categories" \
          JOIN "items" ON "categories"."id" = "items"."categoryID" \
          ORDER BY "categories"."name", "items"."price" DESC LIMIT ?
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Books", "Books"])
      #expect(rows.map(\.1) == ["Atlas", "Novel"])
    }
  }

  @Test(arguments: TestDialect.all) func joiningNoneMatchesNothing(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let inner = Category.join(Item.none) { $0.id.eq($1.categoryID) }
      let left = Category.leftJoin(Item.none) { $0.id.eq($1.categoryID) }
      let innerRows = try await inner.fetchAll(db)
      let leftRows = try await left.fetchAll(db)
      #expect(innerRows.isEmpty)
      #expect(leftRows.isEmpty)
    }
  }
}

/// Joins of a table with itself and of tables without a primary key.
@Suite struct JoinedTableHelperTests {
  @Test(arguments: TestDialect.all) func aHelperOnTheColumnsWorksOnTheOptionalSideOfAJoin(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Comment
        .leftJoin(Employee.all) { $0.id.eq($1.id) }
        .where { $1.isWellPaid }
        .order(by: \.id)
        .select { ($0.body, $1.name) }
      #expect(query.queryFragment.sql.contains(#"WHERE "employees"."salary" >= ?"#))
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Root", "Reply"])
      #expect(rows.map(\.1) == ["Ada", "Grace"])
    }
  }

  /// SQLite's only: PostgreSQL has no rowid, and refuses the statement before it is sent.
  @Test(arguments: TestDialect.all) func countingATableWithoutAPrimaryKeyCountsItsRowids(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .group(by: \.id)
        .leftJoin(ItemTag.all) { $0.id.eq($1.itemID) }
        .order(by: \.id)
        .select { ($0.title, $1.count()) }
      #expect(query.queryFragment.sql.hasPrefix(#"SELECT "items"."title", count("itemTags"."rowid") FROM"#))
      switch dialect {
      case .sqlite:
        let rows = try await query.fetchAll(db)
        #expect(rows.map(\.1) == [2, 1, 0, 1, 0])
      case .postgreSQL:
        await #expect(throws: DialectError.self) { try await query.fetchAll(db) }
      }
    }
  }
}

enum Manager: AliasName {}
enum Skip: AliasName {
  static var aliasName: String { "skipLevel" }
}

/// Table aliases: one table joined with itself.
@Suite struct TableAliasTests {
  @Test(arguments: TestDialect.all) func selfJoinThroughAnAlias(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee
        .leftJoin(Employee.as(Manager.self).all) { $0.managerID.eq($1.id) }
        .order(by: \.id)
        .select { ($0.name, $1.name) }
      #expect(
        query.queryFragment.sql == """
          SELECT "employees"."name", "Manager"."name" FROM "employees" \
          LEFT JOIN "employees" AS "Manager" ON "employees"."managerID" = "Manager"."id" \
          ORDER BY "employees"."id"
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Ada", "Grace", "Linus", "Ken"])
      #expect(rows.map(\.1) == [nil, "Ada", "Grace", "Grace"])
    }
  }

  @Test(arguments: TestDialect.all) func aliasedRowsDecodeAsTheTable(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let query = Employee
        .join(Employee.as(Manager.self).where { $0.salary > 100_000 }) { $0.managerID.eq($1.id) }
        .join(Employee.as(Skip.self).all) { $1.managerID.eq($2.id) }
        .order(by: \.id)
      #expect(query.queryFragment.sql.contains(#"JOIN "employees" AS "skipLevel" ON "Manager"."managerID" = "skipLevel"."id""#))
      #expect(query.queryFragment.sql.contains(#"WHERE "Manager"."salary" > ?"#))
      let rows: [(Employee, Employee, Employee)] = try await query.fetchAll(db)
      #expect(rows.map(\.0.name) == ["Linus", "Ken"])
      #expect(rows.map(\.1.name) == ["Grace", "Grace"])
      #expect(rows.map(\.2.name) == ["Ada", "Ada"])

      let managers = Employee
        .join(Employee.as(Manager.self).all) { $0.managerID.eq($1.id) }
        .where { $1.salary > 250_000 }
      let pairs: [(Employee, Employee)] = try await managers.fetchAll(db)
      #expect(pairs.map(\.0.name) == ["Grace"])
      #expect(pairs.map(\.1.name) == ["Ada"])

      let byAlias = try await Employee.as(Manager.self).find(2).fetchOne(db)
      #expect(byAlias?.name == "Grace")
      #expect(Employee.as(Manager.self).find(2).queryFragment.sql.hasSuffix(#"FROM "employees" AS "Manager" WHERE "Manager"."id" = ?"#))
    }
  }
}

/// Selections nested in selections, and subqueries of every shape.
@Suite struct NestedSelectionTests {
  @Test(arguments: TestDialect.all) func nestedSelectionsDecodeFieldByField(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item
        .leftJoin(Category.all) { $0.categoryID.eq($1.id) }
        .where { $0.price < 20 }
        .order(by: \.id)
        .select {
          ItemListing.Columns(
            category: $1.name,
            tag: PriceTag.Columns(title: $0.title, price: $0.price),
            discounted: PriceTag.Columns(title: $0.title.upper(), price: $0.price / 2))
        }
      #expect(
        query.queryFragment.sql.hasPrefix(
          #"SELECT "categories"."name" AS "category", "items"."title" AS "title", "items"."price" AS "price", "#
            + #"upper("items"."title") AS "title", "items"."price" / ? AS "price" FROM"#))
      let listings = try await query.fetchAll(db)
      #expect(listings.map(\.category) == ["Electronics", "Books"])
      #expect(listings.map(\.tag.title) == ["Cable", "Novel"])
      #expect(listings.map(\.discounted?.title) == ["CABLE", "NOVEL"])
      #expect(listings.map(\.discounted?.price) == [4.75, 7.5])
    }
  }

  @Test(arguments: TestDialect.all) func joiningAStatementThatSelectsAppendsItsColumns(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Category
        .order(by: \.id)
        .select(\.name)
        .join(Item.where(\.isActive).order(by: \.title).select(\.title)) { $0.id.eq($1.categoryID) }
      #expect(
        query.queryFragment.sql == """
          SELECT "categories"."name", "items"."title" FROM "categories" \
          JOIN "items" ON "categories"."id" = "items"."categoryID" \
          WHERE "items"."isActive" ORDER BY "categories"."id", "items"."title"
          """)
      let rows: [(String, String)] = try await query.fetchAll(db)
      #expect(rows.map(\.1) == ["Cable", "Phone", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func inTakesSubqueriesOfAnyShape(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let titled = Item.where { $0.id.in(Values(2).union(Item.where { $0.price > 40 }.select(\.id))) }.order(by: \.id)
      #expect(try await titled.select(\.title).fetchAll(db) == ["Phone", "Cable", "Atlas"])

      let maxOrZero = Item.where { $0.price > 10_000 }.select { $0.price.max() }.ifnull(0)
      #expect(maxOrZero.queryFragment.sql.hasPrefix("ifnull((SELECT max("))
      #expect(try await Values(maxOrZero).fetchOne(db) == 0)
    }
  }
}
