import Foundation
import GRDB
import StrataCore

extension StoredValue {
  /// The value as GRDB binds it.
  var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .integer(let value): value.databaseValue
    case .real(let value): value.databaseValue
    case .text(let text): text.databaseValue
    case .blob(let bytes): Data(bytes).databaseValue
    }
  }

  /// The value GRDB read.
  init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let integer): self = .integer(integer)
    case .double(let real): self = .real(real)
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(Array(data))
    }
  }
}

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
