import Foundation
import GRDB
import StrataCore

extension StoredValue {
  /// The value GRDB read, as SQLite stores it.
  package init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let integer): self = .integer(integer)
    case .double(let real): self = .real(real)
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(Array(data))
    }
  }

  /// The value as GRDB binds it.
  package var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .integer(let value): value.databaseValue
    case .real(let value): value.databaseValue
    case .text(let text): text.databaseValue
    case .blob(let bytes): Data(bytes).databaseValue
    }
  }
}
