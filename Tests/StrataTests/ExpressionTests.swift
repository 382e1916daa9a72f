import Foundation
import Strata
import Testing

/// Operators and functions: the SQL each renders and the rows it selects.
@Suite struct ExpressionTests {
  /// The titles of the items matching `predicate`, in id order, and the predicate's SQL.
  func titles<P: QueryExpression>(
    _ db: TestDatabase, _ predicate: (Item.TableColumns) -> P
  ) async throws -> (sql: String, titles: [String])
  where P.QueryValue: QueryRepresentable, P.QueryValue.Unwrapped == Bool {
    let query = Item.where(predicate).order(by: \.id).select { $0.title }
    let sql = query.queryFragment.description
    let whereClause = sql.components(separatedBy: " WHERE ").dropFirst().joined(separator: " WHERE ")
      .components(separatedBy: " ORDER BY ").first!
    return (whereClause, try await query.fetchAll(db))
  }

  @Test(arguments: TestDialect.all) func equalityIsSQLsAndNullMatchesNothing(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let equal = try await titles(db) { $0.title.eq("Cable") }
      #expect(equal.sql == #""items"."title" = 'Cable'"#)
      #expect(equal.titles == ["Cable"])

      let notEqual = try await titles(db) { $0.quantity.neq(0) }
      #expect(notEqual.sql == #""items"."quantity" <> 0"#)
      #expect(notEqual.titles == ["Phone", "Cable", "Novel", "Mystery box"])

      // `<>` is NULL, not true, where notes are NULL: only "Novel" has other notes.
      let optional = try await titles(db) { $0.notes.neq("Flagship") }
      #expect(optional.sql == #""items"."notes" <> 'Flagship'"#)
      #expect(optional.titles == ["Novel"])

      let optionalEqual = try await titles(db) { $0.priority.eq(.high) }
      #expect(optionalEqual.sql == #""items"."priority" = 3"#)
      #expect(optionalEqual.titles == ["Phone"])

      let equalNil = try await titles(db) { $0.notes.eq(nil) }
      #expect(equalNil.sql == #""items"."notes" = NULL"#)
      #expect(equalNil.titles.isEmpty)
    }
  }

  @Test(arguments: TestDialect.all) func isAndIsNotMatchNull(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let isNot = try await titles(db) { $0.notes.isNot("Flagship") }
      #expect(isNot.sql == #""items"."notes" IS NOT 'Flagship'"#)
      #expect(isNot.titles == ["Cable", "Novel", "Atlas", "Mystery box"])

      let isCase = try await titles(db) { $0.priority.is(.high) }
      #expect(isCase.sql == #""items"."priority" IS 3"#)
      #expect(isCase.titles == ["Phone"])

      // Two columns: NULL IS NULL is true.
      let sameDates = try await titles(db) { $0.dueDate.is($0.dueDate) }
      #expect(sameDates.sql == #""items"."dueDate" IS "items"."dueDate""#)
      #expect(sameDates.titles.count == 5)
      let notesOtherThanTitle = try await titles(db) { $0.notes.isNot($0.title) }
      #expect(notesOtherThanTitle.sql == #""items"."notes" IS NOT "items"."title""#)
      #expect(notesOtherThanTitle.titles.count == 5)
    }
  }

  @Test(arguments: TestDialect.all) func nullChecks(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let isNil = try await titles(db) { $0.notes.is(nil) }
      #expect(isNil.sql == #""items"."notes" IS NULL"#)
      #expect(isNil.titles == ["Cable", "Atlas", "Mystery box"])
      let isNotNil = try await titles(db) { $0.categoryID.isNot(nil) }
      #expect(isNotNil.sql == #""items"."categoryID" IS NOT NULL"#)
      #expect(isNotNil.titles == ["Phone", "Cable", "Novel", "Atlas"])
    }
  }

  @Test(arguments: TestDialect.all) func orderingComparisons(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      #expect(try await titles(db) { $0.price < 15 }.titles == ["Cable"])
      #expect(try await titles(db) { $0.price <= 15 }.titles == ["Cable", "Novel"])
      #expect(try await titles(db) { $0.price > 45 }.titles == ["Phone"])
      #expect(try await titles(db) { $0.price >= 45 }.titles == ["Phone", "Atlas"])
      #expect(try await titles(db) { 10 < $0.quantity }.sql == #"10 < "items"."quantity""#)
      #expect(try await titles(db) { $0.createdAt > referenceDate.addingTimeInterval(150) }.titles == ["Atlas", "Mystery box"])
      let between = try await titles(db) { $0.price.between(10, and: 20) }
      #expect(between.sql == #""items"."price" BETWEEN 10.0 AND 20.0"#)
      #expect(between.titles == ["Novel", "Mystery box"])
    }
  }

  @Test(arguments: TestDialect.all) func logicalOperators(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let both = try await titles(db) { $0.isActive && $0.price > 30 || $0.quantity.eq(7) }
      #expect(both.sql == #"("items"."isActive" AND ("items"."price" > 30.0)) OR ("items"."quantity" = 7)"#)
      #expect(both.titles == ["Phone", "Novel", "Atlas"])
      let not = try await titles(db) { !$0.isActive }
      #expect(not.sql == #"NOT "items"."isActive""#)
      #expect(not.titles == ["Novel"])
      let notCompound = try await titles(db) { !($0.isActive && $0.price > 30) }
      #expect(notCompound.sql == #"NOT ("items"."isActive" AND ("items"."price" > 30.0))"#)
      #expect(notCompound.titles == ["Cable", "Novel", "Mystery box"])
    }
  }

  @Test(arguments: TestDialect.all) func arithmetic(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select {
        ($0.price * 2, $0.quantity + 1, $0.quantity - 1, $0.quantity / 2, -$0.quantity)
      }
      #expect(
        query.queryFragment.description.hasPrefix(
          #"SELECT "items"."price" * 2.0, "items"."quantity" + 1, "items"."quantity" - 1, "items"."quantity" / 2, -"items"."quantity" FROM"#
        ))
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == [1398, 19, 30, 90, 40])
      #expect(rows.map(\.1) == [4, 41, 8, 1, 2])
      #expect(rows.map(\.2) == [2, 39, 6, -1, 0])
      #expect(rows.map(\.3) == [1, 20, 3, 0, 0])
      #expect(rows.map(\.4) == [-3, -40, -7, 0, -1])
      let nested = try await titles(db) { ($0.quantity + 1) * 2 > 10 }
      #expect(nested.sql == #"(("items"."quantity" + 1) * 2) > 10"#)
      #expect(nested.titles == ["Cable", "Novel"])
    }
  }

  @Test(arguments: TestDialect.all) func membership(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let inList = try await titles(db) { $0.id.in([1, 4, 99]) }
      #expect(inList.sql == #""items"."id" IN (1, 4, 99)"#)
      #expect(inList.titles == ["Phone", "Atlas"])
      #expect(try await titles(db) { $0.id.in([Int]()) }.titles.isEmpty)
      let notIn = try await titles(db) { !$0.id.in([1, 2]) }
      #expect(notIn.titles == ["Novel", "Atlas", "Mystery box"])
      let inSubquery = try await titles(db) {
        $0.id.in(ItemTag.where { $0.tagID.eq(2) }.select { $0.itemID })
      }
      #expect(
        inSubquery.sql
          == #""items"."id" IN (SELECT "itemTags"."itemID" FROM "itemTags" WHERE "itemTags"."tagID" = 2)"#)
      #expect(inSubquery.titles == ["Phone", "Cable"])
    }
  }

  @Test(arguments: TestDialect.all) func textMatching(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let like = try await titles(db) { $0.title.like("%o%") }
      #expect(like.sql == #""items"."title" LIKE '%o%'"#)
      #expect(like.titles == ["Phone", "Novel", "Mystery box"])
      let contains = try await titles(db) { $0.title.contains("o") }
      #expect(contains.sql == #"instr("items"."title", 'o') > 0"#)
      #expect(contains.titles == ["Phone", "Novel", "Mystery box"])
      #expect(try await titles(db) { $0.title.contains("O") }.titles.isEmpty)
      #expect(try await titles(db) { $0.title.contains("%") }.titles.isEmpty)
      let prefix = try await titles(db) { $0.title.hasPrefix("Ph") }
      #expect(prefix.sql == #"instr("items"."title", 'Ph') = 1"#)
      #expect(prefix.titles == ["Phone"])
      let suffix = try await titles(db) { $0.title.hasSuffix("box") }
      #expect(suffix.sql == #"substr("items"."title", -3) = 'box'"#)
      #expect(suffix.titles == ["Mystery box"])
      #expect(try await titles(db) { $0.title.hasSuffix("") }.titles.count == 5)
      let escaped = try await titles(db) { $0.title.like("%!_%", escape: "!") }
      #expect(escaped.sql == #""items"."title" LIKE '%!_%' ESCAPE '!'"#)
      #expect(escaped.titles.isEmpty)
    }
  }

  @Test(arguments: TestDialect.all) func collation(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let exact = try await titles(db) { $0.title.eq("phone") }
      #expect(exact.titles.isEmpty)
      // NOCASE is SQLite's; PostgreSQL refuses it before anything is sent.
      guard dialect == .sqlite else { return }
      let nocase = try await titles(db) { $0.title.collate(.nocase).eq("phone") }
      #expect(nocase.sql == #""items"."title" COLLATE NOCASE = 'phone'"#)
      #expect(nocase.titles == ["Phone"])
      let sorted = Item.order { $0.title.collate(.nocase).desc() }.select { $0.title }
      #expect(sorted.queryFragment.sql.hasSuffix(#"ORDER BY "items"."title" COLLATE NOCASE DESC"#))
    }
  }

  @Test(arguments: TestDialect.all) func textFunctions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.find(5).select {
        ($0.title.lower(), $0.title.upper(), $0.title.length(), ("  " + $0.title + " ").trim())
      }
      #expect(
        query.queryFragment.description.hasPrefix(
          #"SELECT lower("items"."title"), upper("items"."title"), length("items"."title"), trim(('  ' || "items"."title") || ' ') FROM"#
        ))
      let row = try await query.fetchOne(db)
      #expect(row?.0 == "mystery box")
      #expect(row?.1 == "MYSTERY BOX")
      #expect(row?.2 == 11)
      #expect(row?.3 == "Mystery box")
      let trimmed = try await Item.find(1).select { ($0.title.ltrim("P"), $0.title.rtrim("e")) }.fetchOne(db)
      #expect(trimmed?.0 == "hone")
      #expect(trimmed?.1 == "Phon")
    }
  }

  @Test(arguments: TestDialect.all) func coalesce(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order(by: \.id).select { $0.notes ?? $0.title }
      #expect(query.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", "items"."title") FROM"#))
      #expect(try await query.fetchAll(db) == ["Flagship", "Cable", "Paperback", "Atlas", "Mystery box"])
      let bothOptional = Item.order(by: \.id).select { $0.notes ?? $0.notes }
      #expect(bothOptional.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", "items"."notes")"#))
      #expect(try await bothOptional.fetchAll(db) == ["Flagship", nil, "Paperback", nil, nil])
      let chained = Item.order(by: \.id).select { $0.notes ?? $0.notes.upper() ?? "none" }
      #expect(chained.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", coalesce(upper("items"."notes"), ?))"#))
      let plainSwift: String? = nil
      let stillStandard = plainSwift ?? "standard library"
      #expect(stillStandard == "standard library")
      let literal = try await Item.order(by: \.id).select { $0.notes ?? "none" }.fetchAll(db)
      #expect(literal == ["Flagship", "none", "Paperback", "none", "none"])
    }
  }

  @Test func swiftValuesKeepTheirOwnMethods() {
    let text: String? = "Mystery box"
    let contains = text?.contains("box")
    let hasPrefix = "Phone".hasPrefix("Ph")
    let count = [3, 1, 2].max()
    #expect(contains == true)
    #expect(hasPrefix)
    #expect(count == 3)
    #expect(type(of: contains) == Bool?.self)
  }
}

/// Operands that take their type from the column: literals of a 64-bit column, enum cases.
@Suite struct OperandInferenceTests {
  @Test(arguments: TestDialect.all) func int64ColumnsTakeIntegerLiterals(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let raise = Employee.where { $0.salary < 200_000 }.update { $0.salary += 1_000 }
      #expect(
        raise.queryFragment.description
          == #"UPDATE "employees" SET "salary" = "employees"."salary" + 1000 WHERE "employees"."salary" < 200000"#)
      try await raise.execute(db)
      let salaries = try await Employee.where { $0.salary * 2 > 300_000 }.order(by: \.id).select(\.salary).fetchAll(db)
      #expect(salaries == [300_000, 200_000, 151_000, 151_000])
    }
  }

  @Test(arguments: TestDialect.all) func enumCasesInferFromTheColumn(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let archived = Item.where { $0.status.eq(.archived) }.select(\.title)
      #expect(archived.queryFragment.description.hasSuffix(#"WHERE "items"."status" = 'archived'"#))
      #expect(try await archived.fetchAll(db) == ["Novel"])
      let notLow = Item.where { $0.priority.neq(.low) }.order(by: \.id).select(\.title)
      #expect(try await notLow.fetchAll(db) == ["Phone", "Atlas"])
    }
  }
}
