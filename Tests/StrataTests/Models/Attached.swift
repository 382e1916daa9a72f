// A model in an attached database: the best score of each player name, cached in a file of its
// own.
import Strata

// @Table(schema: "cache")
struct CachedScore: Table, Identifiable {
  let id: Int
  var playerName: String
  var best = 0
}
