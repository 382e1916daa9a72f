import Foundation
import Strata
import Testing

/// Operators and functions: the SQL each renders and the rows it selects.
@Suite struct ExpressionTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  /// The titles of the items matching `predicate`, in id order, and the predicate's SQL.
  func titles<P: QueryExpression>(
    _ predicate: (Item.TableColumns) -> P
  ) throws -> (sql: String, titles: [String])
  where P.QueryValue: QueryRepresentable, P.QueryValue.Unwrapped == Bool {
    let query = Item.where(predicate).order(by: \.id).select { $0.title }
    let sql = query.queryFragment.description
    let whereClause = sql.components(separatedBy: " WHERE ").dropFirst().joined(separator: " WHERE ")
      .components(separatedBy: " ORDER BY ").first!
    return (whereClause, try database.read { try query.fetchAll($0) })
  }

  @Test func equalityIsSQLsAndNullMatchesNothing() throws {
    let equal = try titles { $0.title.eq("Cable") }
    #expect(equal.sql == #""items"."title" = 'Cable'"#)
    #expect(equal.titles == ["Cable"])

    let notEqual = try titles { $0.quantity.neq(0) }
    #expect(notEqual.sql == #""items"."quantity" <> 0"#)
    #expect(notEqual.titles == ["Phone", "Cable", "Novel", "Mystery box"])

    // `<>` is NULL, not true, where notes are NULL: only "Novel" has other notes.
    let optional = try titles { $0.notes.neq("Flagship") }
    #expect(optional.sql == #""items"."notes" <> 'Flagship'"#)
    #expect(optional.titles == ["Novel"])

    let optionalEqual = try titles { $0.priority.eq(.high) }
    #expect(optionalEqual.sql == #""items"."priority" = 3"#)
    #expect(optionalEqual.titles == ["Phone"])

    let equalNil = try titles { $0.notes.eq(nil) }
    #expect(equalNil.sql == #""items"."notes" = NULL"#)
    #expect(equalNil.titles.isEmpty)
  }

  @Test func isAndIsNotMatchNull() throws {
    let isNot = try titles { $0.notes.isNot("Flagship") }
    #expect(isNot.sql == #""items"."notes" IS NOT 'Flagship'"#)
    #expect(isNot.titles == ["Cable", "Novel", "Atlas", "Mystery box"])

    let isCase = try titles { $0.priority.is(.high) }
    #expect(isCase.sql == #""items"."priority" IS 3"#)
    #expect(isCase.titles == ["Phone"])

    // Two columns: NULL IS NULL is true.
    let sameDates = try titles { $0.dueDate.is($0.dueDate) }
    #expect(sameDates.sql == #""items"."dueDate" IS "items"."dueDate""#)
    #expect(sameDates.titles.count == 5)
    let notesOtherThanTitle = try titles { $0.notes.isNot($0.title) }
    #expect(notesOtherThanTitle.sql == #""items"."notes" IS NOT "items"."title""#)
    #expect(notesOtherThanTitle.titles.count == 5)
  }

  @Test func nullChecks() throws {
    let isNil = try titles { $0.notes.is(nil) }
    #expect(isNil.sql == #""items"."notes" IS NULL"#)
    #expect(isNil.titles == ["Cable", "Atlas", "Mystery box"])
    let isNotNil = try titles { $0.categoryID.isNot(nil) }
    #expect(isNotNil.sql == #""items"."categoryID" IS NOT NULL"#)
    #expect(isNotNil.titles == ["Phone", "Cable", "Novel", "Atlas"])
  }

  @Test func orderingComparisons() throws {
    #expect(try titles { $0.price < 15 }.titles == ["Cable"])
    #expect(try titles { $0.price <= 15 }.titles == ["Cable", "Novel"])
    #expect(try titles { $0.price > 45 }.titles == ["Phone"])
    #expect(try titles { $0.price >= 45 }.titles == ["Phone", "Atlas"])
    #expect(try titles { 10 < $0.quantity }.sql == #"10 < "items"."quantity""#)
    #expect(try titles { $0.createdAt > referenceDate.addingTimeInterval(150) }.titles == ["Atlas", "Mystery box"])
    let between = try titles { $0.price.between(10, and: 20) }
    #expect(between.sql == #""items"."price" BETWEEN 10.0 AND 20.0"#)
    #expect(between.titles == ["Novel", "Mystery box"])
  }

  @Test func logicalOperators() throws {
    let both = try titles { $0.isActive && $0.price > 30 || $0.quantity.eq(7) }
    #expect(both.sql == #"("items"."isActive" AND ("items"."price" > 30.0)) OR ("items"."quantity" = 7)"#)
    #expect(both.titles == ["Phone", "Novel", "Atlas"])
    let not = try titles { !$0.isActive }
    #expect(not.sql == #"NOT "items"."isActive""#)
    #expect(not.titles == ["Novel"])
    let notCompound = try titles { !($0.isActive && $0.price > 30) }
    #expect(notCompound.sql == #"NOT ("items"."isActive" AND ("items"."price" > 30.0))"#)
    #expect(notCompound.titles == ["Cable", "Novel", "Mystery box"])
  }

  @Test func arithmetic() throws {
    let query = Item.order(by: \.id).select {
      ($0.price * 2, $0.quantity + 1, $0.quantity - 1, $0.quantity / 2, -$0.quantity)
    }
    #expect(
      query.queryFragment.description.hasPrefix(
        #"SELECT "items"."price" * 2.0, "items"."quantity" + 1, "items"."quantity" - 1, "items"."quantity" / 2, -"items"."quantity" FROM"#
      ))
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == [1398, 19, 30, 90, 40])
    #expect(rows.map(\.1) == [4, 41, 8, 1, 2])
    #expect(rows.map(\.2) == [2, 39, 6, -1, 0])
    #expect(rows.map(\.3) == [1, 20, 3, 0, 0])
    #expect(rows.map(\.4) == [-3, -40, -7, 0, -1])
    let nested = try titles { ($0.quantity + 1) * 2 > 10 }
    #expect(nested.sql == #"(("items"."quantity" + 1) * 2) > 10"#)
    #expect(nested.titles == ["Cable", "Novel"])
  }

  @Test func membership() throws {
    let inList = try titles { $0.id.in([1, 4, 99]) }
    #expect(inList.sql == #""items"."id" IN (1, 4, 99)"#)
    #expect(inList.titles == ["Phone", "Atlas"])
    #expect(try titles { $0.id.in([Int]()) }.titles.isEmpty)
    let notIn = try titles { !$0.id.in([1, 2]) }
    #expect(notIn.titles == ["Novel", "Atlas", "Mystery box"])
    let inSubquery = try titles {
      $0.id.in(ItemTag.where { $0.tagID.eq(2) }.select { $0.itemID })
    }
    #expect(
      inSubquery.sql
        == #""items"."id" IN (SELECT "itemTags"."itemID" FROM "itemTags" WHERE "itemTags"."tagID" = 2)"#)
    #expect(inSubquery.titles == ["Phone", "Cable"])
  }

  @Test func textMatching() throws {
    let like = try titles { $0.title.like("%o%") }
    #expect(like.sql == #""items"."title" LIKE '%o%'"#)
    #expect(like.titles == ["Phone", "Novel", "Mystery box"])
    let contains = try titles { $0.title.contains("o") }
    #expect(contains.sql == #"instr("items"."title", 'o') > 0"#)
    #expect(contains.titles == ["Phone", "Novel", "Mystery box"])
    #expect(try titles { $0.title.contains("O") }.titles.isEmpty)
    #expect(try titles { $0.title.contains("%") }.titles.isEmpty)
    let prefix = try titles { $0.title.hasPrefix("Ph") }
    #expect(prefix.sql == #"instr("items"."title", 'Ph') = 1"#)
    #expect(prefix.titles == ["Phone"])
    let suffix = try titles { $0.title.hasSuffix("box") }
    #expect(suffix.sql == #"substr("items"."title", -3) = 'box'"#)
    #expect(suffix.titles == ["Mystery box"])
    #expect(try titles { $0.title.hasSuffix("") }.titles.count == 5)
    let escaped = try titles { $0.title.like("%!_%", escape: "!") }
    #expect(escaped.sql == #""items"."title" LIKE '%!_%' ESCAPE '!'"#)
    #expect(escaped.titles.isEmpty)
  }

  @Test func collation() throws {
    let exact = try titles { $0.title.eq("phone") }
    #expect(exact.titles.isEmpty)
    let nocase = try titles { $0.title.collate(.nocase).eq("phone") }
    #expect(nocase.sql == #""items"."title" COLLATE NOCASE = 'phone'"#)
    #expect(nocase.titles == ["Phone"])
    let sorted = Item.order { $0.title.collate(.nocase).desc() }.select { $0.title }
    #expect(sorted.queryFragment.sql.hasSuffix(#"ORDER BY "items"."title" COLLATE NOCASE DESC"#))
  }

  @Test func textFunctions() throws {
    let query = Item.find(5).select {
      ($0.title.lower(), $0.title.upper(), $0.title.length(), ("  " + $0.title + " ").trim())
    }
    #expect(
      query.queryFragment.description.hasPrefix(
        #"SELECT lower("items"."title"), upper("items"."title"), length("items"."title"), trim(('  ' || "items"."title") || ' ') FROM"#
      ))
    let row = try database.read { try query.fetchOne($0) }
    #expect(row?.0 == "mystery box")
    #expect(row?.1 == "MYSTERY BOX")
    #expect(row?.2 == 11)
    #expect(row?.3 == "Mystery box")
    let trimmed = try database.read {
      try Item.find(1).select { ($0.title.ltrim("P"), $0.title.rtrim("e")) }.fetchOne($0)
    }
    #expect(trimmed?.0 == "hone")
    #expect(trimmed?.1 == "Phon")
  }

  @Test func coalesce() throws {
    let query = Item.order(by: \.id).select { $0.notes ?? $0.title }
    #expect(query.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", "items"."title") FROM"#))
    #expect(try database.read { try query.fetchAll($0) } == ["Flagship", "Cable", "Paperback", "Atlas", "Mystery box"])
    let bothOptional = Item.order(by: \.id).select { $0.notes ?? $0.notes }
    #expect(bothOptional.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", "items"."notes")"#))
    #expect(try database.read { try bothOptional.fetchAll($0) } == ["Flagship", nil, "Paperback", nil, nil])
    let chained = Item.order(by: \.id).select { $0.notes ?? $0.notes.upper() ?? "none" }
    #expect(chained.queryFragment.sql.hasPrefix(#"SELECT coalesce("items"."notes", coalesce(upper("items"."notes"), ?))"#))
    let plainSwift: String? = nil
    let stillStandard = plainSwift ?? "standard library"
    #expect(stillStandard == "standard library")
    let literal = try database.read {
      try Item.order(by: \.id).select { $0.notes ?? "none" }.fetchAll($0)
    }
    #expect(literal == ["Flagship", "none", "Paperback", "none", "none"])
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
  @Test func int64ColumnsTakeIntegerLiterals() throws {
    let database = try organizationDatabase()
    let raise = Employee.where { $0.salary < 200_000 }.update { $0.salary += 1_000 }
    #expect(
      raise.queryFragment.description
        == #"UPDATE "employees" SET "salary" = "employees"."salary" + 1000 WHERE "employees"."salary" < 200000"#)
    try database.write { try raise.execute($0) }
    let salaries = try database.read { db in
      try Employee.where { $0.salary * 2 > 300_000 }.order(by: \.id).select(\.salary).fetchAll(db)
    }
    #expect(salaries == [300_000, 200_000, 151_000, 151_000])
  }

  @Test func enumCasesInferFromTheColumn() throws {
    let database = try catalogDatabase()
    try database.write(seedCatalog)
    let archived = Item.where { $0.status.eq(.archived) }.select(\.title)
    #expect(archived.queryFragment.description.hasSuffix(#"WHERE "items"."status" = 'archived'"#))
    #expect(try database.read { try archived.fetchAll($0) } == ["Novel"])
    let notLow = Item.where { $0.priority.neq(.low) }.order(by: \.id).select(\.title)
    #expect(try database.read { try notLow.fetchAll($0) } == ["Phone", "Atlas"])
  }
}
