// Full-text search over the games' titles, a view and a trigger, declared with the models.
import Foundation
import Strata

/// The games' titles, searchable; triggers on `games` keep the index in sync.
// @FTS5(content: Game.self, tokenize: "porter")
struct GameText: FTS5 {
  let rowid: Int
  let title: String
}

/// Each game's title with its number of players.
// @View(raw: "SELECT g.title, count(p.id) FROM games AS g LEFT JOIN players AS p ON p.gameID = g.id GROUP BY g.id")
// @Trigger("players_no_negative_score", raw: "AFTER UPDATE OF score ON players WHEN new.score < 0 BEGIN UPDATE players SET score = 0 WHERE id = new.id; END")
struct GameSummary: Table {
  let title: String
  let playerCount: Int
}

/// A player's name with their game's title: the rows of a temporary view.
struct PlayerWithGame: Selection {
  let playerName: String
  let gameTitle: String
}

/// SQL functions written in Swift, which queries and the view below call.
let exclaim = ScalarFunction("exclaim") { (text: String) -> String in text + "!" }
let medianScore = AggregateFunction("median_score") { (scores: [Int]) -> Double? in
  let sorted = scores.sorted()
  guard !sorted.isEmpty else { return nil }
  return sorted.count % 2 == 1 ? Double(sorted[sorted.count / 2]) : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A function with a labeled, defaulted argument, whose SQL function the plugin writes
/// (`shoutFunction`); nonisolated, since this module's code is the main actor's by default and
/// SQLite calls the function on its connection's thread.
// @DatabaseFunction
nonisolated func shout(_ text: String, times: Int = 2) -> String {
  text.uppercased() + String(repeating: "!", count: times)
}

/// The games' titles, excited: a view that calls a function the app writes in Swift.
// @View(raw: "SELECT exclaim(title) FROM games")
struct ExcitedGame: Table {
  let title: String
}

/// A round of a game, with its points doubled by the database (a generated column) and when it
/// was played (a column group).
struct Round: Table, Identifiable {
  let id: Int
  var gameID: Game.ID
  var points = 0
  // @Generated(raw: "points * 2")
  var doubled: Int
  var played: Played
}

/// When something was played: stored as the columns of the table it is a property of.
struct Played: Selection {
  var startedAt: Date
  var endedAt: Date?
}

/// Something that happened in a game: an enum whose cases are stored in the table's columns.
struct Event: Table, Identifiable {
  let id: Int
  var kind: Kind

  enum Kind: Selection, Equatable {
    case scored(Int)
    case fouled(Event.Foul)
  }

  struct Foul: Selection, Equatable {
    var reason: String
    var penalty = 1
  }
}

/// A game's best score, cached in a file of its own: a model in an attached database.
// @Table(schema: "cache")
struct BestScore: Table, Identifiable {
  let id: Int
  var gameTitle = ""
  var best = 0
}
