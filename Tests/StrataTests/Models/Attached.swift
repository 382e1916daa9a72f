// A model in an attached database: the best score of each player name, cached in a file of its
// own.
import Foundation
import Strata

// @Table(schema: "cache")
struct CachedScore: Table, Identifiable {
  let id: Int
  var playerName: String
  var best = 0
}

/// The players a server last reported, cached under the main database's table name: each
/// database has its own "players".
// @Table("players", schema: "cache")
struct CachedPlayer: Table, Identifiable {
  let id: UUID
  var name: String
  var rank = 0
}
