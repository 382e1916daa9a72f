// What Swift's conventions cannot say on their own: a key on two columns, a CHECK, SQL defaults
// and a partial index.
import Foundation
import Strata

// @PrimaryKey(on: "gameID, round")
// @Check(raw: "points >= 0")
// @Index(on: "points", whereRaw: "points >= 100")
struct RoundScore: Table {
  let gameID: Game.ID
  let round: Int
  var points = 0
  // @Default(raw: "CURRENT_TIMESTAMP")
  var recordedAt: String
  // @Default(raw: "'round ' || 1")
  var label: String?
}
