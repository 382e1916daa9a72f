import Foundation
import GRDB

/// GRDB's `Codable` record for the same table.
struct CodablePlayer: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "players"
  static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
    .lowercaseString
  }
  var id: UUID?
  var gameID: UUID
  var name: String
  var score: Int
}

/// GRDB's record with a hand-written `init(row:)`, reading columns by position.
struct RowPlayer: FetchableRecord {
  var id: UUID
  var gameID: UUID
  var name: String
  var score: Int

  init(row: Row) throws {
    id = row[0]
    gameID = row[1]
    name = row[2]
    score = row[3]
  }
}
