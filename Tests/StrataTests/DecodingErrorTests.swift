import Foundation
import Strata
import Testing

/// Values that do not fit the requested type are errors that name the column, the type, the
/// value found and the SQL; none of them crashes.
@Suite struct DecodingErrorTests {
  let database: any DatabaseWriter

  init() throws {
    database = try scorekeeperDatabase()
  }

  func error<Value>(_ query: SQLQuery<Value>) throws -> QueryDecodingError
  where Value: QueryRepresentable {
    do {
      _ = try database.read { try query.fetchAll($0) }
    } catch let error as QueryDecodingError {
      return error
    }
    Issue.record("expected a decoding error for \(query.queryFragment.sql)")
    throw CancellationError()
  }

  @Test func wrongStorageClassNamesColumnTypeValueAndSQL() throws {
    let error = try error(sql("SELECT 'ten' AS score", as: Int.self))
    #expect(error.columnIndex == 0)
    #expect(error.columnName == "score")
    #expect(error.expectedType == "Int")
    #expect(error.found == "TEXT 'ten'")
    #expect(error.sql == "SELECT 'ten' AS score")
    #expect(
      error.description == """
        column 0 "score" of the result: expected Int, found TEXT 'ten'
          in: SELECT 'ten' AS score
        """)
  }

  @Test func nullInANonOptionalColumn() throws {
    let error = try error(sql("SELECT NULL AS title", as: String.self))
    #expect(error.found == "NULL")
    #expect(error.expectedType == "String")
  }

  @Test func valuesThatDoNotFit() throws {
    #expect(try error(sql("SELECT 300", as: Int8.self)).found == "INTEGER 300")
    #expect(try error(sql("SELECT 1e300", as: Int.self)).found == "REAL 1e+300")
    #expect(try error(sql("SELECT 'not a uuid'", as: UUID.self)).expectedType == "UUID")
    #expect(try error(sql("SELECT 9", as: Priority.self)).description.contains("expected Priority, found INTEGER 9"))
    #expect(try error(sql("SELECT 'gone'", as: Status.self)).found == "TEXT 'gone'")
    #expect(try error(sql("SELECT '[1,'", as: JSONRepresentation<[Int]>.self)).found == "TEXT '[1,'")
    #expect(try error(sql("SELECT x'00'", as: String.self)).found == "BLOB (1 bytes)")
  }

  @Test func longTextIsShortenedInTheMessage() throws {
    let long = String(repeating: "x", count: 200)
    let error = try error(sql("SELECT \(raw: "'" + long + "'")", as: Int.self))
    #expect(error.found == "TEXT '\(String(repeating: "x", count: 64))…'")
  }

  @Test func missingAndExtraColumns() throws {
    let missing = try error(sql("SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'", as: Game.self))
    #expect(missing.columnIndex == 1)
    #expect(missing.found == "no such column: the statement returns 1 column")
    let extra = try error(sql("SELECT 1, 2", as: Int.self))
    #expect(extra.description.contains("1 more: the statement returns 2"))
  }

  @Test func corruptRowInATable() throws {
    try database.write { db in
      try sql("INSERT INTO games (id, title) VALUES ('nope', 'Broken')").execute(db)
    }
    #expect {
      try database.read { try Game.fetchAll($0) }
    } throws: { error in
      guard let error = error as? QueryDecodingError else { return false }
      return error.columnName == "id" && error.expectedType == "UUID" && error.found == "TEXT 'nope'"
        && error.sql == #"SELECT "games"."id", "games"."title" FROM "games""#
    }
  }
}
