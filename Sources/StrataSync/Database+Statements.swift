import Foundation
import GRDB
import Strata
import StrataCore

extension Row {
  /// The value of column `index` as SQLite stores it.
  func stored(_ index: Int) -> StoredValue {
    StoredValue(self[index] as DatabaseValue)
  }
}

extension Database {
  /// Runs `sql` through GRDB's statement cache: the engine runs the same few statements for
  /// every row it merges.
  func run(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws {
    try cachedStatement(sql: sql).execute(arguments: arguments)
  }

  /// The rows `sql` returns, through the statement cache.
  func rows(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> [Row] {
    try Row.fetchAll(try cachedStatement(sql: sql), arguments: arguments)
  }

  /// The first row `sql` returns, through the statement cache.
  func row(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> Row? {
    try Row.fetchOne(try cachedStatement(sql: sql), arguments: arguments)
  }
}
