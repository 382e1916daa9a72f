// The synced models the sync tests run on: a board with columns of every merge rule, and its
// cards, which reference it.
import Foundation
import Strata

// @Synced
struct Board: Table, Identifiable {
  let id: UUID
  var title = ""
  // @Unique
  var slug: String?
  // @Merge(.max)
  var rank = 0
  // @Merge(.counter)
  var likes = 0
  // @Merge(.union)
  var tags = "[]"
  // @Merge(with: "mergeNotes")
  var notes = ""

  /// Concurrent notes, each kept once, oldest first.
  static func mergeNotes(_ values: [String]) -> String {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }.joined(separator: " | ")
  }
}

// @Synced
struct Card: Table, Identifiable {
  let id: UUID
  // @References(Board.self, onDelete: .cascade)
  let boardID: Board.ID
  var text = ""
  var position = 0
}

/// A table that does not sync, beside the synced ones.
struct LocalNote: Table {
  let id: Int
  var text = ""
}
