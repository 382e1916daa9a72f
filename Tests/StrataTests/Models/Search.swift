// Full-text search, views and triggers declared with the models, as seed 004 uses them: an FTS5
// index over the articles (kept in sync by the triggers the migrations create), a standalone
// FTS5 table, a view, a trigger, and lists of reminders for temporary views and triggers.
import Foundation
import Strata

struct Article: Table, Identifiable {
  let id: Int
  var title = ""
  var body = ""
  var isPublished = false
  var editCount = 0
}

/// The articles' text, searchable: the index reads each row's title and body from `articles`.
// @FTS5(content: Article.self, tokenize: "porter unicode61", prefix: "2 3")
struct ArticleText: FTS5 {
  let rowid: Int
  let title: String
  let body: String
}

/// Notes searched with trigrams, which hold their own text.
// @FTS5(tokenize: "trigram")
struct NoteText: FTS5 {
  let rowid: Int
  var text: String
}

/// The published articles, newest first in id.
// @View(raw: "SELECT id, title FROM articles WHERE isPublished")
// @Trigger("articles_count_edits", raw: "AFTER UPDATE OF body ON articles BEGIN UPDATE articles SET editCount = editCount + 1 WHERE id = new.id; END")
// @Trigger("publishedArticles_insert", raw: "INSTEAD OF INSERT ON publishedArticles BEGIN INSERT INTO articles (title, isPublished) VALUES (new.title, 1); END")
struct PublishedArticle: Table, Identifiable {
  let id: Int
  let title: String
}

struct TodoList: Table, Identifiable {
  let id: Int
  var title = ""
}

struct Todo: Table, Identifiable {
  let id: Int
  var title = ""
  var todoListID: TodoList.ID
  var position = 0
  var updatedAt: Date?
}

/// A todo with its list's title: the rows of a temporary view.
struct TodoWithList: Selection {
  let todoTitle: String
  let todoListTitle: String
}

/// Cookbooks of recipes keyed by UUID, with a unique slug, searchable by title: the rows a
/// `REPLACE`, an upsert or a cascade removes or changes leave the index with them.
struct Cookbook: Table, Identifiable {
  let id: UUID
  var name = ""
}

struct Recipe: Table, Identifiable {
  let id: UUID
  var cookbookID: Cookbook.ID
  // @Unique
  var slug: String
  var title = ""
}

// @FTS5(content: Recipe.self)
struct RecipeText: FTS5 {
  let rowid: Int
  let title: String
}
