// The benchmark's row, as each library declares it: Strata's plain struct (the plugin generates
// its conformances) and Fluent's model class.
import FluentKit
import Foundation
import StrataPostgreSQL

struct Player: StrataPostgreSQL.Table, Identifiable {
  let id: UUID
  let gameID: UUID
  var name = ""
  var score = 0
}

final class FluentPlayer: Model, @unchecked Sendable {
  static let schema = "players"

  @ID(custom: "id", generatedBy: .user) var id: UUID?
  @Field(key: "gameID") var gameID: UUID
  @Field(key: "name") var name: String
  @Field(key: "score") var score: Int

  init() {}

  init(id: UUID, gameID: UUID, name: String, score: Int) {
    self.id = id
    self.gameID = gameID
    self.name = name
    self.score = score
  }
}
