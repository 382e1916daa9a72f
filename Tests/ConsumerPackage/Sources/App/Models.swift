// The seed's models, in a module whose default isolation is the main actor.
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
