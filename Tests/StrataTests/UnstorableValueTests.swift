import Foundation
import Strata
import Testing

/// Values one database cannot store as given: SQLite refuses them, naming the table, the
/// column and the value, before the statement runs; PostgreSQL stores and reads them back.
@Suite struct UnstorableValueTests {
  static let createdAt = Date(timeIntervalSince1970: 1_735_787_045.678)

  @Test(arguments: TestDialect.all) func nanNegativeZeroAndFarDatesAreRefusedOnSQLiteAndKeptOnPostgreSQL(_ dialect: TestDialect) async throws {
    try await dialect.database { db throws in
      let writes: [(statement: any QueryStatement<()>, column: String, value: String)] = [
        (Item.insert { Item.Draft(title: "nan", price: .nan, createdAt: Self.createdAt) }, "price", "NaN"),
        (Item.insert { Item.Draft(title: "zero", price: -0.0, createdAt: Self.createdAt) }, "price", "-0.0"),
        (Item.insert { Item.Draft(title: "past", createdAt: .distantPast) }, "createdAt", "the date before the year range"),
        (Item.insert { Item.Draft(title: "future", createdAt: .distantFuture, dueDate: Date(timeIntervalSince1970: 1e12)) }, "dueDate", "the date after the year range"),
      ]
      for write in writes {
        switch dialect {
        case .sqlite:
          await #expect {
            try await write.statement.execute(db)
          } throws: { error in
            "\(error)".hasPrefix(#""items"."\#(write.column)" cannot hold \#(write.value)"#)
          }
        case .postgreSQL:
          try await write.statement.execute(db)
        }
      }
      // An update names the column too, and nothing was written on SQLite.
      let update = Item.where { $0.title.eq("zero") }.update { $0.price = -0.0 }
      switch dialect {
      case .sqlite:
        await #expect {
          try await update.execute(db)
        } throws: { error in
          "\(error)".hasPrefix(#""items"."price" cannot hold -0.0: SQLite keeps a REAL without a fraction as an integer"#)
        }
        #expect(try await Item.count().fetchOne(db) == 0)
      case .postgreSQL:
        let items = try await Item.order(by: \.id).fetchAll(db)
        #expect(items.map(\.title) == ["nan", "zero", "past", "future"])
        #expect(items[0].price.isNaN)
        #expect(items[1].price == 0 && items[1].price.sign == .minus)
        #expect(items[2].createdAt == .distantPast)
        #expect(items[3].dueDate == Date(timeIntervalSince1970: 1e12))
        // A date past PostgreSQL's range would be sent as 'infinity': it is refused.
        await #expect {
          try await Item.insert { Item.Draft(title: "far", createdAt: Date(timeIntervalSince1970: 1e15)) }.execute(db)
        } throws: { error in
          "\(error)".hasPrefix(#""items"."createdAt" cannot hold the date "#) && "\(error)".contains("4713 BC to 294276 AD")
        }
      }
    }
  }
}
