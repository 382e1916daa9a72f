import Foundation
import Strata

// @Trigger("articles_count_edits", raw: "AFTER UPDATE OF body ON articles BEGIN UPDATE articles SET editCount = editCount + 1 WHERE id = new.id; END")
struct Article: Table, Identifiable {
  let id: Int
  var title = ""
  var body = ""
  var isPublished = false
  var editCount = 0
  // @Generated(raw: "length(body)", stored: true)
  var bodyLength: Int
}

// @FTS5(content: Article.self, tokenize: "porter unicode61", prefix: "2 3")
struct ArticleText: FTS5 {
  let rowid: Int
  var title: String
  var body: String
}

// @FTS5(tokenize: "trigram")
struct NoteText: FTS5 {
  let rowid: Int
  var text: String
}

// @View(raw: "SELECT id, title FROM articles WHERE isPublished")
struct PublishedArticle: Table, Identifiable {
  let id: Int
  var title: String
}

struct Stamps: Selection {
  let createdAt: Date
  let updatedAt: Date?
}

struct Memo: Table, Identifiable {
  let id: Int
  var body = ""
  var stamps: Stamps
}
