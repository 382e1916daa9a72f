import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// Every kind of value a model stores, through PostgreSQL's own types (`bigint`, `double
/// precision`, `text`, `boolean`, `timestamptz`, `uuid`, `bytea`, `jsonb`) and back through the
/// generated decoding; aggregates that PostgreSQL returns as `numeric`; decoding errors that name
/// the column, the type, the value and the SQL.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLValueTests {
  /// A date with microseconds, which PostgreSQL keeps (SQLite's text keeps milliseconds).
  static let precise = Date(timeIntervalSince1970: 1_735_787_045.123_456)

  @Test func everyStoredTypeReadsBackUnchanged() async throws {
    try await TestDialect.postgreSQL.database { db throws in
      let id = UUID()
      let bytes = Data((0...255).map { UInt8($0) })
      try await Category.insert { Category.Draft(name: "Ünïcødé ✓ 'quoted' \"double\" \\ back") }.execute(db)
      let item = Item.Draft(
        categoryID: 1, title: "", notes: "line\nbreak\ttab 🧪", price: 0.1 + 0.2, quantity: Int(Int64.max),
        isActive: false, createdAt: Self.precise, dueDate: Date(timeIntervalSince1970: -2_208_988_800),
        priority: .medium, status: .archived, tags: ["a", "ü", "{\"nested\": [1]}"], photo: bytes, externalID: id)
      let inserted = try #require(try await Item.insert { item }.returning(\.self).fetchOne(db))
      let read = try #require(try await Item.find(inserted.id).fetchOne(db))
      #expect(read.title == "")
      #expect(read.notes == "line\nbreak\ttab 🧪")
      #expect(read.price == 0.1 + 0.2)
      #expect(read.quantity == Int(Int64.max))
      #expect(read.isActive == false)
      #expect(abs(read.createdAt.timeIntervalSince(Self.precise)) < 0.000_001)
      #expect(read.dueDate == Date(timeIntervalSince1970: -2_208_988_800))
      #expect(read.priority == .medium)
      #expect(read.status == .archived)
      #expect(read.tags == ["a", "ü", "{\"nested\": [1]}"])
      #expect(read.photo == bytes)
      #expect(read.externalID == id)
      #expect(try await Category.find(1).select(\.name).fetchOne(db) == "Ünïcødé ✓ 'quoted' \"double\" \\ back")

      // The server holds them as its own types, not as text.
      let types = try await sql(
        """
        SELECT pg_typeof("price")::text || ' ' || pg_typeof("isActive")::text || ' ' || pg_typeof("createdAt")::text
          || ' ' || pg_typeof("tags")::text || ' ' || pg_typeof("photo")::text || ' ' || pg_typeof("externalID")::text
        FROM "items" WHERE "id" = \(inserted.id)
        """, as: String.self
      ).fetchOne(db)
      #expect(types == "double precision boolean timestamp with time zone jsonb bytea uuid")
    }
  }

  @Test func nullsAndOptionalsReadAsNil() async throws {
    try await TestDialect.postgreSQL.database { db throws in
      let item = Item.Draft(title: "bare", createdAt: Self.precise)
      try await Item.insert { item }.execute(db)
      let read = try #require(try await Item.where { $0.title.eq("bare") }.fetchOne(db))
      #expect(read.categoryID == nil && read.notes == nil && read.dueDate == nil && read.priority == nil)
      #expect(read.photo == nil && read.externalID == nil)
      #expect(try await Item.where { $0.externalID.is(nil) }.select(\.title).fetchAll(db) == ["bare"])
      #expect(try await Item.where { $0.notes.isNot(nil) }.fetchCount(db) == 0)
    }
  }

  @Test func valuesBindAsTheirTypesAnywhereInAStatement() async throws {
    try await TestDialect.postgreSQL.database { db throws in
      let id = UUID()
      #expect(try await sql("SELECT \(id)", as: UUID.self).fetchOne(db) == id)
      #expect(try await sql("SELECT \(true)", as: Bool.self).fetchOne(db) == true)
      #expect(try await sql("SELECT \(Int64.min)", as: Int64.self).fetchOne(db) == Int64.min)
      #expect(try await sql("SELECT \(-0.0) < 0 OR \(1.5) > 1", as: Bool.self).fetchOne(db) == true)
      #expect(try await sql("SELECT \(Data([0, 1, 2]))", as: Data.self).fetchOne(db) == Data([0, 1, 2]))
      let date = try #require(try await sql("SELECT \(Self.precise)", as: Date.self).fetchOne(db))
      #expect(abs(date.timeIntervalSince(Self.precise)) < 0.000_001)
      #expect(try await sql("SELECT \(Date.distantFuture) > now()", as: Bool.self).fetchOne(db) == true)
      #expect(try await sql("SELECT \(Double.infinity)", as: Double.self).fetchOne(db) == .infinity)
      #expect(try await sql("SELECT \(Double.nan)", as: Double.self).fetchOne(db)?.isNaN == true)
    }
  }

  /// PostgreSQL's `sum` of integers, `avg` and `round(x, n)` are `numeric`: read as an integer
  /// when it has no fraction, as a double otherwise.
  @Test func numericResultsOfAggregatesDecode() async throws {
    try await TestDialect.postgreSQL.database(seeding: catalogRows()) { db throws in
      let sums = try await Item.select { ($0.quantity.sum(), $0.quantity.avg(), $0.price.sum()) }.fetchOne(db)
      #expect(sums?.0 == 51 && sums?.1 == 10.2 && sums?.2 == 788.5)
      #expect(try await Item.order(by: \.id).select { ($0.price / 7).round(2) }.fetchAll(db) == [99.86, 1.36, 2.14, 6.43, 2.86])
      let total = try await Item.select { $0.quantity.sum() }.fetchOne(db)
      #expect(total == .some(51))
      let average = try await Item.select { $0.quantity.avg() }.fetchOne(db)
      #expect(average == .some(10.2))
      #expect(try await sql("SELECT 12345678901234567890::numeric", as: Double.self).fetchOne(db) == 1.234_567_890_123_456_789e19)
      #expect(try await sql("SELECT (-0.000123)::numeric", as: Double.self).fetchOne(db) == -0.000123)
      #expect(try await sql("SELECT (-42)::numeric", as: Int.self).fetchOne(db) == -42)
      #expect(try await sql("SELECT 100000000::numeric", as: Int.self).fetchOne(db) == 100_000_000)
      #expect(try await sql("SELECT 0::numeric", as: Int.self).fetchOne(db) == 0)
      #expect(try await sql("SELECT 'NaN'::numeric", as: Double.self).fetchOne(db)?.isNaN == true)
    }
  }

  @Test func decodingErrorsNameTheColumnTypeValueAndSQL() async throws {
    try await TestDialect.postgreSQL.database { db throws in
      func message(_ fetch: () async throws -> Void) async -> String {
        do {
          try await fetch()
          return "no error"
        } catch {
          return "\(error)"
        }
      }
      #expect(
        await message { _ = try await sql("SELECT 'ten'::text AS score", as: Int.self).fetchAll(db) }
          == "column 0 \"score\" of the result: expected Int, found text 'ten'\n  in: SELECT 'ten'::text AS score")
      #expect(
        await message { _ = try await sql("SELECT 3000000000::bigint AS n", as: Int32.self).fetchAll(db) }
          == "column 0 \"n\" of the result: expected Int32, found bigint 3000000000\n  in: SELECT 3000000000::bigint AS n")
      #expect(
        await message { _ = try await sql("SELECT NULL::uuid AS id", as: UUID.self).fetchAll(db) }
          == "column 0 \"id\" of the result: expected UUID, found NULL\n  in: SELECT NULL::uuid AS id")
      #expect(
        await message { _ = try await sql("SELECT interval '1 day' AS span", as: String.self).fetchAll(db) }
          == "column 0 \"span\" of the result: expected String, found interval (a PostgreSQL type Strata does not read)\n  in: SELECT interval '1 day' AS span")
      #expect(
        await message { _ = try await sql("SELECT 1 AS a", as: (Int, Int).self).fetchAll(db) }
          == "column 1 of the result: expected Int, found no such column: the statement returns 1 column\n  in: SELECT 1 AS a")
      #expect(
        await message { _ = try await sql("SELECT 1 AS a, 2 AS b", as: Int.self).fetchAll(db) }
          == "column 1 \"b\" of the result: expected no more columns (the decoded type has 1), found 1 more: the statement returns 2\n  in: SELECT 1 AS a, 2 AS b")
    }
  }
}
