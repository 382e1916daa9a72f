// The benchmark's models; the Strata plugin generates their conformances.
import Foundation
import Strata

/// The benchmark's row: two UUID TEXT columns, a TEXT and an INTEGER, as in the example app's
/// `players` table.
struct Player: Table, Identifiable {
  let id: UUID
  let gameID: Game.ID
  var name = ""
  var score = 0
}

struct Game: Table, Identifiable {
  let id: UUID
  var title = ""
}

struct GameRow: Selection {
  let game: Game
  let playerCount: Int
}

/// A game's total score: the table of a common table expression.
struct GameTotal: Selection {
  let gameID: Game.ID
  let total: Int
}

/// A player with an aggregate over its group: a selection with a whole-table field.
struct PlayerTotal: Selection {
  let player: Player
  let total: Int?
}

/// A post whose text is searchable through `PostText`.
struct Post: Table, Identifiable {
  let id: Int
  var title = ""
  var body = ""
}

/// The posts' full-text index, kept in sync by triggers on `posts`.
// @FTS5(content: Post.self)
struct PostText: FTS5 {
  let rowid: Int
  let title: String
  let body: String
}

/// The same rows without an index: what an insert costs without the sync triggers.
struct PlainPost: Table, Identifiable {
  let id: Int
  var title = ""
  var body = ""
}

/// The posts' text indexed by hand, without triggers: what the index itself costs.
struct PlainPostText: FTS5 {
  let rowid: Int
  var title: String
  var body: String
}

/// A record synced from a server, as in SQLiteData's documented batch upsert: unique per library and remote
/// id, updated only by newer versions.
// @Unique(on: "libraryID, remoteID")
struct SyncItem: Table, Identifiable {
  let id: UUID
  var name = ""
  var libraryID = 0
  var remoteID = 0
  var updatedAt: Date
}
