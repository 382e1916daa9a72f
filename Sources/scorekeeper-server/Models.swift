// The Scorekeeper schema, as the server keeps it: the same plain structs as the SQLite
// example's (`Sources/scorekeeper/Models.swift`), in a target that depends on StrataPostgreSQL
// alone, whose migrations are PostgreSQL's (`Migrations/strata.json`).
import Foundation
import StrataPostgreSQL

// @Synced
struct Game: Table, Identifiable {
  let id: UUID
  var title = ""
}

// @Synced
struct Player: Table, Identifiable {
  let id: UUID
  let gameID: Game.ID
  var name = ""
  // Points scored on two devices at once add up.
  // @Merge(.counter)
  var score = 0
}

/// A game with the number of players in it (the games list screen).
struct GameRow: Selection {
  let game: Game
  let playerCount: Int
}
