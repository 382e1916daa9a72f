// A full-text index over the synced cards, which SQLite replicas keep and the server does not.
import Strata

/// The cards' text, searchable: the index's triggers keep it as sync's writes change the cards.
// @FTS5(content: Card.self)
struct CardText: FTS5 {
  let rowid: Int
  let text: String
}
