import Foundation
import GRDB
import GRDBSQLite
import Strata

/// Full-text search over generated posts of real-looking text: the first page of a `match` with
/// `snippet`, beside the same query hand-written on raw sqlite3, and inserting the posts with
/// the index's sync triggers beside the same insert into a table without them.
enum SearchBenchmark {
  static func run(_ database: some DatabaseWriter, rows: Int, runs: Int, pages: Int) throws {
    var generator = PostGenerator(seed: 42)
    let posts = generator.posts(rows)
    try database.write { db in
      try PlainPost.delete().execute(db)
      try Post.delete().execute(db)
    }

    let insert = Comparison(title: "insert \(rows) posts in one transaction")
    func timedInsert(_ body: (Database) throws -> Void) throws -> Duration {
      try database.write { db in
        try Post.delete().execute(db)
        try PlainPost.delete().execute(db)
        try PlainPostText.delete().execute(db)
      }
      return try database.write { db in try timed { try body(db) } }
    }
    insert.measure("without an index (plainPosts)", runs: runs) {
      try timedInsert { db in try PlainPost.insert { posts.map { PlainPost.Draft(title: $0.title, body: $0.body) } }.execute(db) }
    }
    insert.measure("without triggers, indexed by hand (plainPosts, plainPostTexts)", runs: runs) {
      try timedInsert { db in
        try PlainPost.insert { posts.map { PlainPost.Draft(title: $0.title, body: $0.body) } }.execute(db)
        try PlainPostText.insert {
          posts.enumerated().map { PlainPostText.Draft(rowid: $0.offset + 1, title: $0.element.title, body: $0.element.body) }
        }.execute(db)
      }
    }
    insert.measure("with the FTS5 sync triggers (posts)", runs: runs) {
      try timedInsert { db in try Post.insert { posts.map { Post.Draft(title: $0.title, body: $0.body) } }.execute(db) }
    }
    insert.report(baseline: "without an index (plainPosts)", also: "without triggers, indexed by hand (plainPosts, plainPostTexts)")

    // The index must hold every post: its integrity check compares it with the content table.
    try database.write { db in
      try db.execute(sql: #"INSERT INTO "postTexts"("postTexts", rank) VALUES ('integrity-check', 1)"#)
    }
    for text in ["river", "river light"] {
      let pattern = FullTextQuery.allTerms(in: text)
      let page = PostText.where { $0.match(pattern) }.order(by: \.rank).limit(20)
        .select { ($0.rowid, $0.title, $0.body.snippet("<b>", "</b>", "…", 12)) }
      let expected = try database.read { try page.fetchAll($0) }
      let matches = try database.read { try PostText.where { $0.match(pattern) }.fetchCount($0) }
      guard try database.read({ rawPage($0.sqliteConnection!, pattern) }) == expected.map(\.0)
      else { fatalError("the search found \(expected.count) posts, or raw sqlite3 found others") }

      let search = Comparison(
        title: "first page of \(expected.count) of the \(matches) posts matching \(pattern), with snippet, of \(rows) posts",
        unit: .microsecondsPer(pages))
      search.measure("raw sqlite3 prepared FTS5 query (floor)", runs: runs) {
        try database.read { db in
          timed { _ = rawPage(db.sqliteConnection!, pattern, pages: pages) }
        }
      }
      search.measure("Strata match/rank/snippet", runs: runs) {
        try database.read { db in try timed { for _ in 0..<pages { _ = try page.fetchAll(db) } } }
      }
      search.report(baseline: "raw sqlite3 prepared FTS5 query (floor)", also: nil)
    }
  }

  /// The same page through sqlite3, on a statement prepared once and reset for each call, as an
  /// app that caches it would run it; returns the rowids.
  private static func rawPage(_ connection: OpaquePointer, _ pattern: String, pages: Int = 1) -> [Int] {
    var statement: OpaquePointer?
    sqlite3_prepare_v3(
      connection,
      #"SELECT rowid, title, snippet(postTexts, 1, '<b>', '</b>', '…', 12) FROM postTexts WHERE postTexts MATCH ? ORDER BY rank LIMIT 20"#,
      -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    defer { sqlite3_finalize(statement) }
    var rowids: [Int] = []
    for _ in 0..<pages {
      sqlite3_reset(statement)
      sqlite3_bind_text(statement, 1, pattern, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
      rowids = []
      while sqlite3_step(statement) == SQLITE_ROW {
        rowids.append(Int(sqlite3_column_int64(statement, 0)))
        _ = String(cString: sqlite3_column_text(statement, 1))
        _ = String(cString: sqlite3_column_text(statement, 2))
      }
    }
    return rowids
  }
}

/// Posts of English-looking text: words drawn from a vocabulary with a Zipf-like frequency, as
/// in real prose, so that common words match many posts and rare ones few. Deterministic.
struct PostGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  private static let vocabulary: [String] = {
    let common = "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their"
      .split(separator: " ").map(String.init)
    let topical = "river light mountain city garden winter summer coffee bread music engine market harbor forest letter window story morning evening travel island bridge library kitchen station theater valley signal machine planet ocean desert village storm autumn spring lantern painting journey harvest canyon meadow"
      .split(separator: " ").map(String.init)
    // Thousands of rarer words, as real prose has, so that a query's words are in a few percent
    // of the posts rather than in most of them.
    let syllables = [
      "ka", "ro", "mi", "ten", "vel", "sa", "dor", "lin", "qua", "bre", "po", "ith", "nar", "els", "tu", "an", "ber", "cos",
      "dia", "fen", "gor", "hal", "jun", "lem", "mor", "nis", "pel", "ras", "sil", "tov",
    ]
    var invented: [String] = []
    for first in syllables { for second in syllables { for third in syllables { invented.append(first + second + third) } } }
    // The topical words come after the 300 most frequent invented ones, where words like
    // "river" and "light" rank in English prose.
    return common + invented.prefix(300) + topical + invented.dropFirst(300).prefix(12_000)
  }()

  private mutating func next() -> UInt64 {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return state >> 33
  }

  /// A word index with a Zipf-like distribution: small indexes are much more likely.
  private mutating func word() -> String {
    let uniform = Double(next() % 1_000_000) / 1_000_000
    let index = Int(pow(Double(Self.vocabulary.count), uniform)) - 1
    return Self.vocabulary[min(max(index, 0), Self.vocabulary.count - 1)]
  }

  private mutating func sentence(_ words: Int) -> String {
    var text = (0..<words).map { _ in word() }.joined(separator: " ")
    text = text.prefix(1).uppercased() + text.dropFirst()
    return text
  }

  mutating func posts(_ count: Int) -> [(title: String, body: String)] {
    (0..<count).map { _ in
      let title = sentence(4 + Int(next() % 5))
      let body = (0..<(3 + Int(next() % 5))).map { _ in sentence(8 + Int(next() % 12)) + "." }.joined(separator: " ")
      return (title, body)
    }
  }
}
