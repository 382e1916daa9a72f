import Foundation
import Strata
import Testing

/// Full-text search through FTS5 models: the SQL each query renders and the rows it returns, and
/// the index kept in sync with its content table by the triggers the migration created.
@Suite struct FullTextSearchTests {
  let database: any DatabaseWriter

  init() throws {
    database = try testDatabase()
    try database.write { db in
      try db.seed {
        Article.Draft(title: "Swift concurrency", body: "Actors isolate state; tasks run concurrently.", isPublished: true)
        Article.Draft(title: "Cooking rice", body: "Rinse the rice, then simmer it gently.")
        Article.Draft(title: "Swift on Linux", body: "Swift runs on Linux servers and in containers.", isPublished: true)
      }
    }
  }

  func search(_ query: some SelectStatement<Int>) throws -> [Int] {
    try database.read { try query.fetchAll($0) }
  }

  @Test func matchOnTheTableFindsRowsByAnyColumn() throws {
    let query = ArticleText.where { $0.match("swift") }.select(\.rowid)
    expectSQL(query, #"SELECT "articleTexts"."rowid" FROM "articleTexts" WHERE "articleTexts" MATCH 'swift'"#)
    #expect(try search(query).sorted() == [1, 3])
  }

  @Test func matchOnAColumnSearchesOnlyItForThePhrase() throws {
    let query = ArticleText.where { $0.body.match("rice then") }.select(\.rowid)
    expectSQL(query, #"SELECT "articleTexts"."rowid" FROM "articleTexts" WHERE "articleTexts" MATCH '"body":"rice then"'"#)
    #expect(try search(query) == [2])
    #expect(try search(ArticleText.where { $0.title.match("linux") }.select(\.rowid)) == [3])
    #expect(try search(ArticleText.where { $0.title.match("servers") }.select(\.rowid)) == [])
  }

  @Test func theIndexStemsAndIndexesPrefixes() throws {
    // The porter tokenizer reads "running", "runs" and "run" as one word; `prefix='2 3'` makes
    // `con*` fast.
    #expect(try search(ArticleText.where { $0.match("running") }.select(\.rowid)).sorted() == [1, 3])
    #expect(try search(ArticleText.where { $0.match("con*") }.select(\.rowid)).sorted() == [1, 3])
  }

  @Test func rankAndBM25OrderTheBestMatchFirst() throws {
    let byRank = ArticleText.where { $0.match("swift") }.order(by: \.rank).select(\.rowid)
    expectSQL(
      byRank,
      #"SELECT "articleTexts"."rowid" FROM "articleTexts" WHERE "articleTexts" MATCH 'swift' ORDER BY "articleTexts"."rank""#)
    // "Swift" appears twice in the third article, once in the first.
    #expect(try search(byRank) == [3, 1])

    let weighted = ArticleText.where { $0.match("cooking OR containers") }
      .order { $0.bm25([\.title: 10, \.body: 1]) }
      .select(\.rowid)
    expectSQL(
      weighted,
      #"SELECT "articleTexts"."rowid" FROM "articleTexts" WHERE "articleTexts" MATCH 'cooking OR containers' ORDER BY bm25("articleTexts", 10.0, 1.0)"#)
    // "Cooking" is in the second article's title, "containers" in the third's body: the
    // weights decide which comes first.
    #expect(try search(weighted) == [2, 3])
    let bodyFirst = ArticleText.where { $0.match("cooking OR containers") }.order { $0.bm25([\.title: 0.1]) }.select(\.rowid)
    #expect(try search(bodyFirst) == [3, 2])
  }

  @Test func highlightAndSnippetMarkTheMatches() throws {
    let query = ArticleText.where { $0.match("rice") }
      .select { ($0.title.highlight("<b>", "</b>"), $0.body.snippet("[", "]", "…", 3)) }
    expectSQL(
      query,
      #"SELECT highlight("articleTexts", 0, '<b>', '</b>'), snippet("articleTexts", 1, '[', ']', '…', 3) FROM "articleTexts" WHERE "articleTexts" MATCH 'rice'"#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.count == 1)
    #expect(rows.first?.0 == "Cooking <b>rice</b>")
    #expect(rows.first?.1 == "Rinse the [rice]…")
  }

  @Test func joinedBackToTheContentTable() throws {
    let query = Article.join(ArticleText.all) { $0.id.eq($1.rowid) }
      .where { $1.match("swift") }
      .order { $1.rank }
      .select { ($0.title, $0.isPublished) }
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == ["Swift on Linux", "Swift concurrency"])
    #expect(rows.map(\.1) == [true, true])
  }

  @Test func theIndexOnTheOptionalSideOfAnOuterJoin() throws {
    // As StructuredQueries writes it: FTS5's functions on the joined index, without a MATCH.
    let query = Article
      .leftJoin(ArticleText.all) { $0.id.eq($1.rowid) }
      .order { ($1.bm25(), $0.id) }
      .select { ($0.id, $1.title.highlight("**", "**"), $1.rank) }
    expectSQL(
      query,
      #"SELECT "articles"."id", highlight("articleTexts", 0, '**', '**'), "articleTexts"."rank" FROM "articles" LEFT JOIN "articleTexts" ON "articles"."id" = "articleTexts"."rowid" ORDER BY bm25("articleTexts"), "articles"."id""#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == [1, 2, 3])
    #expect(rows.map(\.1) == ["Swift concurrency", "Cooking rice", "Swift on Linux"])
  }

  @Test func aUsersSearchTextIsOnlyData() throws {
    // FTS5 syntax in a pattern is read as syntax, and a malformed one is an error…
    #expect(throws: (any Error).self) {
      try database.read { try ArticleText.where { $0.match("\"unclosed") }.fetchAll($0) }
    }
    // …so text a user typed goes through `FullTextQuery`, which quotes each word.
    let typed = #"swift" OR "rice"#
    #expect(FullTextQuery.allTerms(in: typed) == #""swift""" "OR" """rice""#)
    #expect(try search(ArticleText.where { $0.match(FullTextQuery.allTerms(in: typed)) }.select(\.rowid)) == [])
    #expect(try search(ArticleText.where { $0.match(FullTextQuery.allTerms(in: "swift linu", lastIsPrefix: true)) }.select(\.rowid)) == [3])
    #expect(try search(ArticleText.where { $0.match(FullTextQuery.allTerms(in: "   ")) }.select(\.rowid)) == [])
    // The pattern is a bound value: quotes and semicolons cannot end the statement.
    let hostile = ArticleText.where { $0.match("'); DROP TABLE articles; --") }.select(\.rowid)
    #expect(hostile.queryFragment.sql == #"SELECT "articleTexts"."rowid" FROM "articleTexts" WHERE "articleTexts" MATCH ?"#)
  }

  @Test func theIndexFollowsInsertsUpdatesAndDeletesOfItsContentTable() throws {
    func matches(_ pattern: String) throws -> [Int] {
      try search(ArticleText.where { $0.match(pattern) }.order(by: \.rowid).select(\.rowid))
    }
    try database.write { db in
      try Article.insert { Article.Draft(title: "Baking bread", body: "Knead the dough.") }.execute(db)
    }
    #expect(try matches("dough") == [4])
    try database.write { db in
      try Article.find(4).update { $0.body = "Proof the loaf overnight." }.execute(db)
    }
    #expect(try matches("dough") == [])
    #expect(try matches("loaf") == [4])
    // An update of a column the index does not hold leaves it alone.
    try database.write { db in try Article.find(4).update { $0.isPublished = true }.execute(db) }
    #expect(try matches("loaf") == [4])
    try database.write { db in try Article.find(4).delete().execute(db) }
    #expect(try matches("loaf") == [])
    // FTS5's integrity check compares the index with the content table, row by row.
    try database.write { db in
      try db.execute(sql: #"INSERT INTO "articleTexts"("articleTexts", rank) VALUES ('integrity-check', 1)"#)
    }
    let rows = try database.read { try ArticleText.order(by: \.rowid).fetchAll($0) }
    #expect(rows.map(\.title) == ["Swift concurrency", "Cooking rice", "Swift on Linux"])
  }

  /// Under an alias, `MATCH` and FTS5's functions take the index's hidden column through the
  /// alias (the alias alone names no column); an index joined with itself keeps each apart.
  @Test func fullTextFunctionsWorkUnderAnAlias() throws {
    let query = ArticleText.as(Found.self)
      .where { $0.match("swift") }
      .order { $0.bm25([\.title: 10]) }
      .select { ($0.rowid, $0.title.highlight("[", "]"), $0.body.snippet("[", "]", "…", 2), $0.rank) }
    expectSQL(
      query,
      #"SELECT "Found"."rowid", highlight("Found"."articleTexts", 0, '[', ']'), snippet("Found"."articleTexts", 1, '[', ']', '…', 2), "Found"."rank" FROM "articleTexts" AS "Found" WHERE "Found"."articleTexts" MATCH 'swift' ORDER BY bm25("Found"."articleTexts", 10.0, 1.0)"#)
    let rows = try database.read { try query.fetchAll($0) }
    // Weighted to the title, the shorter title with the word comes first.
    #expect(rows.map(\.0) == [1, 3])
    #expect(rows.map(\.1) == ["[Swift] concurrency", "[Swift] on Linux"])
    let phrase = ArticleText.as(Found.self).where { $0.title.match("on linux") }.select(\.rowid)
    #expect(try database.read { try phrase.fetchAll($0) } == [3])
    // The same index twice: articles about Swift that also mention Linux, through two aliases.
    let both = ArticleText.as(Found.self)
      .join(ArticleText.as(Also.self).all) { $0.rowid.eq($1.rowid) }
      .where { found, also in found.match("swift") && also.match("linux") }
      .select { found, _ in found.rowid }
    #expect(try database.read { try both.fetchAll($0) } == [3])
  }

  /// A NUL in text a user typed is a separator, not the end of the pattern.
  @Test func aNULInSearchTextIsNotAnError() throws {
    #expect(FullTextQuery.allTerms(in: "swift\u{0}linux") == #""swift" "linux""#)
    #expect(FullTextQuery.phrase("on\u{0}linux") == #""on linux""#)
    #expect(try search(ArticleText.where { $0.match(FullTextQuery.allTerms(in: "swift\u{0}linux")) }.select(\.rowid)) == [3])
    #expect(try search(ArticleText.where { $0.match(FullTextQuery.phrase("a\u{0}")) }.select(\.rowid)) == [])
    #expect(try search(ArticleText.where { $0.title.match("on\u{0}linux") }.select(\.rowid)) == [3])
    #expect(try search(ArticleText.where { $0.match("swift\u{0}") }.select(\.rowid)).sorted() == [1, 3])
  }

  /// FTS5's integrity check, which compares the index with its content table row by row: it
  /// throws when they differ.
  func checkIndex(_ name: String) throws {
    try database.write { db in
      try db.execute(sql: "INSERT INTO \(name)(\(name), rank) VALUES ('integrity-check', 1)")
    }
  }

  /// A `REPLACE` deletes the rows that share the new row's key without firing their delete
  /// trigger; the index forgets them anyway, on an integer key and on a UUID key with a unique
  /// column, with upserts, `IGNORE` and cascades beside them.
  @Test func theIndexForgetsEveryRowAReplaceDeletes() throws {
    func articles(_ pattern: String) throws -> [Int] {
      try search(ArticleText.where { $0.match(pattern) }.order(by: \.rowid).select(\.rowid))
    }
    let replace = Article.insert(or: .replace) { Article(id: 1, title: "Banana split", body: "Slice, scoop, serve.") }
    expectSQL(
      replace,
      #"INSERT OR REPLACE INTO "articles" ("id", "title", "body", "isPublished", "editCount") VALUES (1, 'Banana split', 'Slice, scoop, serve.', 0, 0)"#)
    try database.write { try replace.execute($0) }
    try checkIndex("articleTexts")
    #expect(try articles("concurrency") == [])
    #expect(try articles("banana") == [1])
    #expect(try articles("swift") == [3])

    let cookbook = Cookbook(id: UUID(), name: "Desserts")
    let (pie, tart) = (UUID(), UUID())
    func recipes(_ pattern: String) throws -> [String] {
      try database.read { db in
        try Recipe.join(RecipeText.where { $0.match(pattern) }) { $0.rowid.eq($1.rowid) }
          .order { recipe, _ in recipe.slug }
          .select { recipe, _ in recipe.slug }
          .fetchAll(db)
      }
    }
    try database.write { db in
      try Cookbook.insert { cookbook }.execute(db)
      try Recipe.insert {
        Recipe(id: pie, cookbookID: cookbook.id, slug: "pie", title: "Apple pie")
        Recipe(id: tart, cookbookID: cookbook.id, slug: "tart", title: "Cherry tart")
      }.execute(db)
    }
    #expect(try recipes("apple OR cherry") == ["pie", "tart"])
    // The same key: the row is replaced, and gets a new rowid.
    try database.write { db in
      try Recipe.insert(or: .replace) { Recipe(id: pie, cookbookID: cookbook.id, slug: "pie", title: "Pear pie") }.execute(db)
    }
    try checkIndex("recipeTexts")
    #expect(try recipes("apple") == [])
    #expect(try recipes("pear") == ["pie"])
    // Another key, and the slug of another row: that row is deleted.
    try database.write { db in
      try Recipe.insert(or: .replace) { Recipe(id: UUID(), cookbookID: cookbook.id, slug: "tart", title: "Lemon tart") }.execute(db)
    }
    try checkIndex("recipeTexts")
    #expect(try recipes("cherry") == [])
    #expect(try recipes("lemon") == ["tart"])
    // An update that takes another row's slug, with UPDATE OR REPLACE.
    try database.write { db in
      try db.execute(sql: #"UPDATE OR REPLACE "recipes" SET "slug" = 'tart', "title" = 'Pear tart' WHERE "slug" = 'pie'"#)
    }
    try checkIndex("recipeTexts")
    #expect(try recipes("lemon OR pie") == [])
    #expect(try recipes("pear") == ["tart"])
    // A conflict that deletes nothing: ignored, or an upsert's update.
    try database.write { db in
      try Recipe.insert(or: .ignore) { Recipe(id: UUID(), cookbookID: cookbook.id, slug: "tart", title: "Plum tart") }.execute(db)
      try Recipe.insert { Recipe(id: UUID(), cookbookID: cookbook.id, slug: "tart", title: "Fig tart") } onConflict: { $0.slug } doUpdate: {
        $0.title = $1.title
      }.execute(db)
      try Recipe.insert { Recipe(id: UUID(), cookbookID: cookbook.id, slug: "crumble", title: "Plum crumble") }.execute(db)
    }
    try checkIndex("recipeTexts")
    #expect(try recipes("plum") == ["crumble"])
    #expect(try recipes("fig") == ["tart"])
    #expect(try database.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "recipeTexts_replaced""#) } == 0)
    // Several rows in one statement, the second replacing the first.
    try database.write { db in
      try Recipe.insert(or: .replace) {
        Recipe(id: pie, cookbookID: cookbook.id, slug: "scone", title: "Cream scone")
        Recipe(id: UUID(), cookbookID: cookbook.id, slug: "scone", title: "Cheese scone")
      }.execute(db)
    }
    try checkIndex("recipeTexts")
    #expect(try recipes("scone") == ["scone"])
    #expect(try recipes("cheese") == ["scone"])
    // A cascade from the cookbook deletes every recipe, through their delete trigger.
    try database.write { try Cookbook.find(cookbook.id).delete().execute($0) }
    try checkIndex("recipeTexts")
    #expect(try recipes("scone OR tart OR crumble") == [])
  }

  @Test func aStandaloneIndexIsWrittenWithDrafts() throws {
    try database.write { db in
      try NoteText.insert {
        NoteText.Draft(text: "Buy oat milk")
        NoteText.Draft(rowid: 10, text: "Call the plumber")
      }.execute(db)
    }
    // Trigrams match inside words.
    let query = NoteText.where { $0.match("lumb") }
    #expect(try database.read { try query.fetchAll($0) }.map(\.rowid) == [10])
    #expect(try database.read { try NoteText.where { $0.text.match("oat") }.fetchAll($0) }.map(\.text) == ["Buy oat milk"])
  }
}

private enum Found: AliasName {}
private enum Also: AliasName {}
