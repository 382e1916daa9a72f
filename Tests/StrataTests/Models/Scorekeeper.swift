// The seed's Scorekeeper models (../shared/fixtures/scorekeeper/Models.swift). The Strata
// plugin generates their conformances, so every runtime test runs generated code.
import Foundation
import Strata

struct Game: Table, Identifiable {
  let id: UUID
  var title = ""
}

struct Player: Table, Identifiable {
  let id: UUID
  let gameID: Game.ID
  var name = ""
  var score = 0
}

/// A game with the number of players in it.
struct GameRow: Selection {
  let game: Game
  let playerCount: Int
}
