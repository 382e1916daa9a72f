import Foundation
import Strata
import Testing

/// SQLite's scalar functions, casts, integer operators and date functions: the SQL each renders
/// and the values it returns.
@Suite struct FunctionTests {
  /// The selected expression's SQL and its value for every item, in id order.
  func values<Selected: QueryExpression>(
    _ db: TestDatabase, _ selection: (Item.TableColumns) -> Selected
  ) async throws -> (sql: String, values: [Selected.QueryValue.QueryOutput])
  where Selected.QueryValue: QueryRepresentable {
    let query = Item.order(by: \.id).select(selection)
    let sql = query.queryFragment.description
    let selected = sql.dropFirst("SELECT ".count).components(separatedBy: #" FROM "items""#)[0]
    return (selected, try await query.fetchAll(db))
  }

  @Test(arguments: TestDialect.all) func remainderAndBitwiseOperators(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let remainder = try await values(db) { $0.quantity % 3 }
      #expect(remainder.sql == #""items"."quantity" % 3"#)
      #expect(remainder.values == [0, 1, 1, 0, 1])
      // A remainder by zero is NULL in SQLite, so `%` is optional.
      let byZero = try await values(db) { $0.quantity % 0 }
      #expect(byZero.values == [nil, nil, nil, nil, nil])
      let bits = try await values(db) { ($0.quantity & 6) | ($0.id << 4) }
      #expect(bits.sql == #"("items"."quantity" & 6) | ("items"."id" << 4)"#)
      #expect(bits.values == [18, 32, 54, 64, 80])
      let shifted = try await values(db) { ~($0.quantity >> 1) }
      #expect(shifted.sql == #"~("items"."quantity" >> 1)"#)
      #expect(shifted.values == [-2, -21, -4, -1, -1])
    }
  }

  @Test(arguments: TestDialect.all) func nullifIfnullAndScalarMinMax(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let nullif = try await values(db) { $0.quantity.nullif(0) }
      #expect(nullif.sql == #"nullif("items"."quantity", 0)"#)
      #expect(nullif.values == [3, 40, 7, nil, 1])
      let ifnull = try await values(db) { $0.notes.ifnull($0.title) }
      #expect(ifnull.sql == #"ifnull("items"."notes", "items"."title")"#)
      #expect(ifnull.values == ["Flagship", "Cable", "Paperback", "Atlas", "Mystery box"])
      let capped = try await values(db) { $0.quantity.min(10).max($0.id) }
      #expect(capped.sql == #"max(min("items"."quantity", 10), "items"."id")"#)
      #expect(capped.values == [3, 10, 7, 4, 5])
    }
  }

  @Test(arguments: TestDialect.all) func numericFunctions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let abs = try await values(db) { ($0.quantity - 5).abs() }
      #expect(abs.sql == #"abs("items"."quantity" - 5)"#)
      #expect(abs.values == [2, 35, 2, 5, 4])
      let round = try await values(db) { ($0.price / 7).round(1) }
      #expect(round.sql == #"round("items"."price" / 7.0, 1)"#)
      #expect(round.values == [99.9, 1.4, 2.1, 6.4, 2.9])
      let cast = try await values(db) { $0.price.cast(as: Int.self) }
      #expect(cast.sql == #"CAST("items"."price" AS INTEGER)"#)
      #expect(cast.values == [699, 9, 15, 45, 20])
      let castText = try await values(db) { $0.priority.cast(as: String.self) }
      #expect(castText.sql == #"CAST("items"."priority" AS TEXT)"#)
      #expect(castText.values == ["3", "1", nil, "2", nil])
    }
  }

  @Test(arguments: TestDialect.all) func textFunctions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let instr = try await values(db) { $0.title.instr("o") }
      #expect(instr.sql == #"instr("items"."title", 'o')"#)
      #expect(instr.values == [3, 0, 2, 0, 10])
      let replace = try await values(db) { $0.title.replace("a", "4") }
      #expect(replace.sql == #"replace("items"."title", 'a', '4')"#)
      #expect(replace.values == ["Phone", "C4ble", "Novel", "Atl4s", "Mystery box"])
      let substr = try await values(db) { $0.title.substr(2, 3) }
      #expect(substr.sql == #"substr("items"."title", 2, 3)"#)
      #expect(substr.values == ["hon", "abl", "ove", "tla", "yst"])
      // SQLite's own functions; PostgreSQL refuses them before anything is sent
      // (DialectRenderingTests).
      guard dialect == .sqlite else { return }
      let quote = try await values(db) { $0.notes.quote() }
      #expect(quote.sql == #"quote("items"."notes")"#)
      #expect(quote.values == ["'Flagship'", "NULL", "'Paperback'", "NULL", "NULL"])
      let glob = try await values(db) { $0.title.glob("*[ae]?") }
      #expect(glob.sql == #""items"."title" GLOB '*[ae]?'"#)
      #expect(glob.values == [false, false, true, true, false])
      let typeof = try await values(db) { $0.notes.typeof() }
      #expect(typeof.values == ["text", "null", "text", "null", "null"])
    }
  }

  /// SQLite's date functions, which PostgreSQL refuses before anything is sent.
  @Test func dateFunctions() async throws {
    try await TestDialect.sqlite.database(seeding: catalogRows()) { db throws in
      let date = try await values(db) { $0.createdAt.date() }
      #expect(date.sql == #"date("items"."createdAt")"#)
      #expect(date.values == Array(repeating: "2025-01-02", count: 5))
      let moved = try await values(db) { $0.createdAt.datetime(.startOfMonth, .months(1), .days(-1)) }
      #expect(moved.sql == #"datetime("items"."createdAt", 'start of month', '1 months', '-1 days')"#)
      #expect(moved.values.first == "2025-01-31 00:00:00")
      let minute = try await values(db) { $0.createdAt.strftime("%H:%M") }
      #expect(minute.sql == #"strftime('%H:%M', "items"."createdAt")"#)
      #expect(minute.values == ["03:04", "03:05", "03:06", "03:07", "03:08"])
      let epoch = try await values(db) { $0.createdAt.unixepoch() }
      #expect(epoch.values.first == 1_735_787_045)
      let due = try await values(db) { $0.dueDate.julianday() }
      #expect(due.values == [nil, nil, nil, nil, nil])

      let recent = Item.where { $0.createdAt > referenceDate.addingTimeInterval(150) }.select(\.title)
      #expect(try await recent.fetchAll(db) == ["Atlas", "Mystery box"])
    }
  }

  @Test(arguments: TestDialect.all) func randomOrdersRowsAndIsAnInteger(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: catalogRows()) { db throws in
      let query = Item.order { _ in SQLFunction.random() }.select { _ in SQLFunction.random() }
      #expect(query.queryFragment.sql == #"SELECT random() FROM "items" ORDER BY random()"#)
      let numbers = try await query.fetchAll(db)
      #expect(numbers.count == 5)
      #expect(Set(numbers).count == 5)
    }
  }
}
