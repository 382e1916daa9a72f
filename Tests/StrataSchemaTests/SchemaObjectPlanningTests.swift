import Foundation
import Testing

@testable import StrataSchema

/// Planning the full-text indexes, views and triggers models declare: the DDL the first
/// migration writes, and the migrations that follow a change of the object, a rebuild of a table
/// it reads, and its removal, applied to a database with rows.
@Suite struct SchemaObjectPlanningTests {
  let directory: URL
  /// The app's database, migrated by each new migration like the migrator at launch.
  let database: SQLiteConnection

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-objects-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    database = try SQLiteConnection()
  }

  /// Beside the migrations' folder, as `schemas/` is.
  var snapshotPath: String { directory.path + "-snapshot.sql" }

  /// Plans the next migration with the snapshot the last one left, writes it and applies it to
  /// the app's database.
  @discardableResult
  func migrate(_ source: String, allowDataLoss: Bool = false) throws -> MigrationPlan.NewMigration? {
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", source)]).models(),
      migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App", allowDataLoss: allowDataLoss,
      previousSnapshot: try? String(contentsOfFile: snapshotPath, encoding: .utf8))
    try AtomicFile.write(plan.snapshot, to: snapshotPath)
    if let migration = plan.newMigration {
      try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
      try database.execute("BEGIN; \(migration.sql) COMMIT;")
    }
    return plan.newMigration
  }

  func errors(_ source: String) -> [String] {
    do {
      try migrate(source)
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map { "\($0.location.line): \($0.message)" }
    } catch {
      return ["\(error)"]
    }
  }

  func strings(_ sql: String) throws -> [String] {
    try database.rows(sql).map { $0["value"] ?? "NULL" }
  }

  static let articles = """
    struct Article: Table, Identifiable {
      let id: UUID
      var title = ""
      var body = ""
    }
    """

  static let searchable = articles + """

    // @FTS5(content: Article.self)
    struct ArticleText: FTS5 {
      let rowid: Int
      let title: String
      let body: String
    }
    """

  @Test func theFirstMigrationCreatesTheIndexItsTriggersAViewAndATrigger() throws {
    let migration = try #require(
      try migrate(
        Self.searchable + """

          // @View(raw: "SELECT id, title FROM articles WHERE title <> ''")
          struct TitledArticle: Table {
            let id: UUID
            let title: String
          }

          // @Trigger("articles_no_empty_body", raw: "BEFORE INSERT ON articles WHEN new.body = '' BEGIN SELECT RAISE(ABORT, 'empty body'); END")
          struct Note: Table {
            let id: Int
          }
          """))
    #expect(migration.fileName == "0001_create_articles_notes_and_3_more.sql")
    #expect(
      migration.sql.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n") == """
        CREATE TABLE "articles" (
          "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
          "title" TEXT NOT NULL DEFAULT '',
          "body" TEXT NOT NULL DEFAULT ''
        ) STRICT;

        CREATE TABLE "notes" (
          "id" INTEGER PRIMARY KEY AUTOINCREMENT
        ) STRICT;

        CREATE VIRTUAL TABLE "articleTexts" USING fts5("title", "body", content='articles', content_rowid='rowid');
        CREATE TABLE "articleTexts_replaced" ("rowid" INTEGER PRIMARY KEY, "title", "body");
        CREATE TRIGGER "articleTexts_before_insert" BEFORE INSERT ON "articles" BEGIN
          DELETE FROM "articleTexts_replaced";
          INSERT INTO "articleTexts_replaced" ("rowid", "title", "body")
            SELECT "articles"."rowid", "articles"."title", "articles"."body" FROM "articles"
            WHERE "articles"."rowid" = "new"."rowid" OR "articles"."id" = "new"."id";
        END;
        CREATE TRIGGER "articleTexts_after_insert" AFTER INSERT ON "articles" BEGIN
          INSERT INTO "articleTexts"("articleTexts", "rowid", "title", "body")
            SELECT 'delete', "replaced"."rowid", "replaced"."title", "replaced"."body" FROM "articleTexts_replaced" AS "replaced"
            WHERE "replaced"."rowid" = "new"."rowid" OR NOT EXISTS (SELECT 1 FROM "articles" WHERE "articles"."rowid" = "replaced"."rowid");
          DELETE FROM "articleTexts_replaced";
          INSERT INTO "articleTexts"("rowid", "title", "body") VALUES ("new"."rowid", "new"."title", "new"."body");
        END;
        CREATE TRIGGER "articleTexts_before_update" BEFORE UPDATE OF "rowid", "title", "body", "id" ON "articles" BEGIN
          DELETE FROM "articleTexts_replaced";
          INSERT INTO "articleTexts_replaced" ("rowid", "title", "body")
            SELECT "articles"."rowid", "articles"."title", "articles"."body" FROM "articles"
            WHERE "articles"."rowid" <> "old"."rowid" AND ("articles"."rowid" = "new"."rowid" OR "articles"."id" = "new"."id");
        END;
        CREATE TRIGGER "articleTexts_after_update" AFTER UPDATE OF "rowid", "title", "body", "id" ON "articles" BEGIN
          INSERT INTO "articleTexts"("articleTexts", "rowid", "title", "body")
            SELECT 'delete', "replaced"."rowid", "replaced"."title", "replaced"."body" FROM "articleTexts_replaced" AS "replaced"
            WHERE "replaced"."rowid" = "new"."rowid" OR NOT EXISTS (SELECT 1 FROM "articles" WHERE "articles"."rowid" = "replaced"."rowid");
          DELETE FROM "articleTexts_replaced";
          INSERT INTO "articleTexts"("articleTexts", "rowid", "title", "body") VALUES ('delete', "old"."rowid", "old"."title", "old"."body");
          INSERT INTO "articleTexts"("rowid", "title", "body") VALUES ("new"."rowid", "new"."title", "new"."body");
        END;
        CREATE TRIGGER "articleTexts_after_delete" AFTER DELETE ON "articles" BEGIN
          INSERT INTO "articleTexts"("articleTexts", "rowid", "title", "body") VALUES ('delete', "old"."rowid", "old"."title", "old"."body");
        END;
        INSERT INTO "articleTexts"("articleTexts") VALUES ('rebuild');

        CREATE VIEW "titledArticles" ("id", "title") AS
        SELECT id, title FROM articles WHERE title <> '';

        CREATE TRIGGER "articles_no_empty_body" BEFORE INSERT ON articles WHEN new.body = '' BEGIN SELECT RAISE(ABORT, 'empty body'); END;

        """)
    // The schema read back has each object, and the index's shadow tables and table of replaced
    // rows are not tables.
    let introspection = try SchemaIntrospector.introspect(database)
    #expect(introspection.schema.tables.map(\.name) == ["articles", "notes"])
    #expect(introspection.shadowTables.contains("articleTexts_replaced"))
    #expect(
      introspection.objects.map { "\($0.kind.description) \($0.name)" } == [
        "virtual table articleTexts", "view titledArticles", "trigger articleTexts_after_delete",
        "trigger articleTexts_after_insert", "trigger articleTexts_after_update", "trigger articleTexts_before_insert",
        "trigger articleTexts_before_update", "trigger articles_no_empty_body",
      ])
    // Nothing more to do.
    #expect(try migrate(Self.searchable + "\n// @View(raw: \"SELECT id, title FROM articles WHERE title <> ''\")\nstruct TitledArticle: Table {\n  let id: UUID\n  let title: String\n}\n// @Trigger(\"articles_no_empty_body\", raw: \"BEFORE INSERT ON articles WHEN new.body = '' BEGIN SELECT RAISE(ABORT, 'empty body'); END\")\nstruct Note: Table {\n  let id: Int\n}\n") == nil)
  }

  @Test func anIndexCreatedOverExistingRowsIndexesThem() throws {
    try migrate(Self.articles)
    try database.execute("INSERT INTO articles (title, body) VALUES ('Rice', 'Simmer gently'), ('Bread', 'Knead well')")
    try migrate(Self.searchable)
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'knead'") == ["Bread"])
  }

  /// A rebuild of the content table that keeps its rows' rowids and indexed values keeps the
  /// index: the migration is the rebuild alone, named for it, and the triggers come back with the
  /// table.
  @Test func aRebuildOfTheContentTableKeepsTheIndexInSync() throws {
    try migrate(Self.searchable)
    // Rows with a gap in their rowids, which a copy of the rows must not close.
    try database.execute(
      """
      INSERT INTO articles (title, body) VALUES ('One', 'apples'), ('Two', 'pears'), ('Three', 'plums');
      DELETE FROM articles WHERE title = 'One';
      """)
    let changed = Self.searchable.replacingOccurrences(of: "var body = \"\"", with: "var body = \"\"\n  var isDraft = true")
      .replacingOccurrences(of: "var title = \"\"", with: "var title = \"Untitled\"")
    let migration = try #require(try migrate(changed))
    #expect(migration.fileName == "0002_rebuild_articles.sql")
    #expect(migration.summary == [
      #"rebuild table "articles", copying every row, because column "title" changes default from '' to 'Untitled', column "isDraft" is added"#
    ])
    #expect(!migration.sql.contains("fts5") && !migration.sql.contains("'rebuild'"), "\(migration.sql)")
    #expect(migration.sql.contains(#"INSERT INTO "strata_new_articles" (rowid, "id", "title", "body") SELECT rowid, "id", "title", "body" FROM "articles";"#))
    #expect(
      try strings(
        "SELECT a.title AS value FROM articleTexts JOIN articles AS a ON a.rowid = articleTexts.rowid WHERE articleTexts MATCH 'plums OR pears' ORDER BY a.title"
      ) == ["Three", "Two"])
    try database.execute("INSERT INTO articleTexts(articleTexts, rank) VALUES ('integrity-check', 1)")
    // The triggers came back with the table: an update, a replace and a delete keep the index.
    try database.execute("UPDATE articles SET body = 'cherries' WHERE title = 'Two'")
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'cherries'") == ["Two"])
    try database.execute("DELETE FROM articles WHERE title = 'Three'")
    #expect(try strings("SELECT count(*) AS value FROM articleTexts WHERE articleTexts MATCH 'plums'") == ["0"])
    try database.execute("INSERT INTO articleTexts(articleTexts, rank) VALUES ('integrity-check', 1)")
  }

  /// A rebuild that changes an indexed value (NULLs become the new default) makes the index again
  /// from the copied rows; the migration is still named for the table.
  @Test func aRebuildThatChangesIndexedValuesIndexesTheRowsAgain() throws {
    let optionalTitle = Self.searchable.replacingOccurrences(of: "var title = \"\"", with: "var title: String?")
    try migrate(optionalTitle)
    try database.execute("INSERT INTO articles (title, body) VALUES (NULL, 'apples'), ('Two', 'pears')")
    let migration = try #require(try migrate(Self.searchable))
    #expect(migration.fileName == "0002_rebuild_articles.sql")
    #expect(migration.summary.first == #"drop virtual table "articleTexts""#)
    #expect(migration.summary.last == #"create full-text index "articleTexts" over "articles", with the triggers that keep it in sync, and index the rows "articles" has"#)
    try database.execute("INSERT INTO articleTexts(articleTexts, rank) VALUES ('integrity-check', 1)")
    #expect(try strings("SELECT body AS value FROM articleTexts WHERE articleTexts MATCH 'apples'") == ["apples"])
  }

  /// A changed index is named as changed, once, not as its objects dropped and created.
  @Test func aChangedIndexIsNamedOnce() throws {
    try migrate(Self.searchable)
    let stemmed = Self.searchable.replacingOccurrences(of: "// @FTS5(content: Article.self)", with: "// @FTS5(content: Article.self, tokenize: \"porter\")")
    #expect(try migrate(stemmed)?.fileName == "0002_change_articleTexts.sql")
  }

  @Test func changingTheIndexedColumnsOrTokenizerRecreatesIt() throws {
    try migrate(Self.searchable)
    try database.execute("INSERT INTO articles (title, body) VALUES ('Running', 'fast')")
    let stemmed = Self.searchable.replacingOccurrences(of: "// @FTS5(content: Article.self)", with: "// @FTS5(content: Article.self, tokenize: \"porter\")")
    let migration = try #require(try migrate(stemmed))
    #expect(migration.summary.last == #"create full-text index "articleTexts" over "articles", with the triggers that keep it in sync, and index the rows "articles" has"#)
    #expect(migration.sql.contains(#"USING fts5("title", "body", content='articles', content_rowid='rowid', tokenize='porter');"#))
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'run'") == ["Running"])

    let titleOnly = stemmed.replacingOccurrences(of: "  let body: String\n}", with: "}")
    let second = try #require(try migrate(titleOnly))
    #expect(second.sql.contains(#"AFTER UPDATE OF "rowid", "title", "id" ON "articles""#))
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'fast'") == [])
  }

  @Test func aChangedViewIsRecreatedAndARemovedOneDropped() throws {
    let view = { (condition: String) in
      Self.articles + "\n// @View(raw: \"SELECT id, title FROM articles WHERE \(condition)\")\nstruct TitledArticle: Table {\n  let id: UUID\n  let title: String\n}\n"
    }
    try migrate(view("title <> ''"))
    try database.execute("INSERT INTO articles (title) VALUES ('A'), ('')")
    let changed = try #require(try migrate(view("title = ''")))
    #expect(changed.summary == [#"drop view "titledArticles""#, #"create view "titledArticles""#])
    #expect(try strings("SELECT count(*) AS value FROM titledArticles") == ["1"])
    let dropped = try #require(try migrate(Self.articles))
    #expect(dropped.summary == [#"drop view "titledArticles""#])
    #expect(dropped.fileName == "0003_drop_titledArticles.sql")
  }

  @Test func aRemovedIndexIsDroppedWithItsTriggersAndOneThatHoldsTextOnlyWithConsent() throws {
    try migrate(Self.searchable + "\n// @FTS5\nstruct Memo: FTS5 {\n  let rowid: Int\n  var text: String\n}\n")
    try database.execute("INSERT INTO memos (text) VALUES ('remember')")
    #expect(errors(Self.articles) == [
      #"1: the full-text table "memos" holds its own text (it has no content table) and no model declares it any more, so dropping it would delete its rows; to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"#
    ])
    let migration = try #require(try migrate(Self.articles, allowDataLoss: true))
    #expect(migration.summary == [
      #"drop virtual table "articleTexts""#, #"drop virtual table "memos", deleting its rows"#,
      #"drop trigger "articleTexts_after_delete""#, #"drop trigger "articleTexts_after_insert""#,
      #"drop trigger "articleTexts_after_update""#, #"drop trigger "articleTexts_before_insert""#,
      #"drop trigger "articleTexts_before_update""#,
    ])
    #expect(try SchemaIntrospector.introspect(database).objects.isEmpty)
    // The table of replaced rows went with the index.
    #expect(try strings("SELECT name AS value FROM sqlite_schema WHERE name LIKE 'articleTexts%'") == [])
    // Writes to the content table no longer touch an index.
    try database.execute("INSERT INTO articles (title) VALUES ('after')")
  }

  /// An index stores other values beside the text it searches: `// @Unindexed` columns, kept as
  /// they are (a number stays a number) and never matched.
  @Test func anIndexStoresUnindexedColumnsBesideTheText() throws {
    let source = """
      struct Post: Table, Identifiable {
        let id: Int
        var title = ""
        var authorID = 0
        var tag = ""
      }

      // @FTS5(content: Post.self)
      struct PostText: FTS5 {
        let rowid: Int
        let title: String
        // @Unindexed
        let authorID: Int
        // @Unindexed
        let tag: String
      }
      """
    let migration = try #require(try migrate(source))
    #expect(migration.sql.contains(#"USING fts5("title", "authorID" UNINDEXED, "tag" UNINDEXED, content='posts', content_rowid='id');"#), "\(migration.sql)")
    try database.execute("INSERT INTO posts (title, authorID, tag) VALUES ('Swift tips', 7, 'swift'), ('Rust tips', 8, 'rust')")
    #expect(try strings("SELECT authorID AS value FROM postTexts WHERE postTexts MATCH 'tips' ORDER BY rowid") == ["7", "8"])
    #expect(try strings("SELECT typeof(authorID) AS value FROM postTexts WHERE postTexts MATCH 'swift'") == ["integer"])
    // An unindexed column is never matched.
    #expect(try strings("SELECT rowid AS value FROM postTexts WHERE postTexts MATCH 'rust'") == ["2"])
    try database.execute("INSERT INTO postTexts(postTexts, rank) VALUES ('integrity-check', 1)")
    // A column that is not text is searched only when it says it is not.
    let unmarked = source.replacingOccurrences(of: "  // @Unindexed\n  let authorID: Int", with: "  let authorID: Int")
    #expect(errors(unmarked).first?.contains("'authorID' of the FTS5 index 'PostText' is stored as INTEGER; an FTS5 index searches text: make it a String, or mark it // @Unindexed") == true)
  }

  /// An `// @Unmanaged` model reads an index a hand-written migration makes.
  @Test func anUnmanagedModelReadsAVirtualTableAHandWrittenMigrationMakes() throws {
    try AtomicFile.write(
      "CREATE VIRTUAL TABLE \"docs\" USING fts5(\"body\", \"ownerID\" UNINDEXED);\n",
      to: directory.appendingPathComponent("0001_docs.sql").path)
    try database.execute("CREATE VIRTUAL TABLE \"docs\" USING fts5(\"body\", \"ownerID\" UNINDEXED);")
    let model = """
      // @Unmanaged
      struct Doc: FTS5 {
        let rowid: Int
        let body: String
        // @Unindexed
        let ownerID: Int
      }
      """
    #expect(errors(model) == [])
    #expect(try migrate(model) == nil)
    #expect(errors(model.replacingOccurrences(of: "let body: String", with: "let text: String")).first?.contains(
      "'Doc' is // @Unmanaged, but the virtual table \"docs\" the migrations make has no column \"text\"") == true)
  }

  /// A property removed from a content table and from its index in one change is one
  /// migration: the index and its triggers go before the column, and come back without it.
  @Test func aColumnAndItsIndexColumnGoInOneMigration() throws {
    try migrate(Self.searchable)
    try database.execute("INSERT INTO articles (title, body) VALUES ('Rice', 'Simmer gently'), ('Bread', 'Knead well')")
    let withoutBody = Self.searchable
      .replacingOccurrences(of: "  var body = \"\"\n", with: "")
      .replacingOccurrences(of: "  let body: String\n", with: "")
    let migration = try #require(try migrate(withoutBody, allowDataLoss: true))
    #expect(migration.summary.contains(#"drop trigger "articleTexts_after_delete""#), "\(migration.summary)")
    #expect(migration.summary.contains { $0.contains(#"column "body""#) }, "\(migration.summary)")
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'bread'") == ["Bread"])
    #expect(try strings("SELECT count(*) AS value FROM articleTexts WHERE articleTexts MATCH 'knead'") == ["0"])
    try database.execute("INSERT INTO articleTexts(articleTexts, rank) VALUES ('integrity-check', 1)")
    #expect(try migrate(withoutBody) == nil)
  }

  @Test func objectsNoModelEverDeclaredAreKept() throws {
    try migrate(Self.articles)
    try AtomicFile.write(
      "CREATE VIEW handMade AS SELECT title FROM articles;\n", to: directory.appendingPathComponent("0002_hand_made.sql").path)
    try database.execute("CREATE VIEW handMade AS SELECT title FROM articles;")
    #expect(try migrate(Self.articles) == nil)
  }

  @Test func whatTheDatabaseRefusesIsAnErrorAtTheModel() throws {
    // The view's select has one column, the model two.
    #expect(errors(Self.articles + "\n// @View(raw: \"SELECT title FROM articles\")\nstruct Short: Table {\n  let id: UUID\n  let title: String\n}\n") == [
      #"7: the view "shorts" this model declares is not valid SQLite: expected 2 columns for 'shorts' but got 1"#
    ])
    // A second statement after the trigger would run in the migration too.
    #expect(
      errors(
        Self.articles
          + "\n// @Trigger(\"t\", raw: \"AFTER INSERT ON articles BEGIN SELECT 1; END; DROP TABLE articles\")\nstruct Other: Table {\n  let id: Int\n}\n")
        == [#"6: the trigger "t" this model declares is not valid SQLite: it holds more than one statement; write only the trigger's own SQL"#])
    #expect(
      errors(Self.articles + "\n// @FTS5(content: Article.self)\nstruct Bad: FTS5 {\n  let rowid: Int\n  let summary: String\n}\n") == [
        #"9: the FTS5 index 'Bad' indexes "summary", which its content table "articles" has no column of; an index with a content table reads each column from it by name"#
      ])
    #expect(
      errors("struct Bad: FTS5 {\n  let rowid: Int\n  let count: Int\n}\n") == [
        #"3: 'count' of the FTS5 index 'Bad' is stored as INTEGER; an FTS5 index searches text: make it a String, or mark it // @Unindexed to store it beside the text without searching it"#
      ])
    #expect(
      errors("struct Bad: FTS5 {\n  let title: String\n}\n") == [
        "1: 'Bad' is an FTS5 index, whose rows are keyed by their rowid: declare `let rowid: Int`"
      ])
  }
}

extension SchemaObjectPlanningTests {
  @Test func viewsAndTriggersOnARebuiltTableAreRecreatedAsTheyWere() throws {
    let extras = """

      // @View(raw: "SELECT title FROM articles WHERE body <> ''")
      // @Trigger("articles_title_case", raw: "AFTER INSERT ON articles BEGIN UPDATE articles SET title = upper(title) WHERE rowid = new.rowid; END")
      struct WrittenArticle: Table {
        let title: String
      }
      """
    try migrate(Self.articles + extras)
    try database.execute("INSERT INTO articles (title, body) VALUES ('a', 'text'), ('b', '')")
    let migration = try #require(
      try migrate(Self.articles.replacingOccurrences(of: "var body = \"\"", with: "var body = \"-\"") + extras))
    #expect(migration.summary == [#"rebuild table "articles", copying every row, because column "body" changes default from '' to '-'"#])
    #expect(migration.sql.contains(#"DROP VIEW "writtenArticles";"#))
    #expect(migration.sql.contains(#"CREATE TRIGGER "articles_title_case" AFTER INSERT ON articles"#))
    #expect(try strings("SELECT title AS value FROM writtenArticles") == ["A"])
    try database.execute("INSERT INTO articles (title, body) VALUES ('c', 'more')")
    #expect(try strings("SELECT title AS value FROM writtenArticles ORDER BY title") == ["A", "C"])
    // The next run finds nothing to do: the recreated objects are the declared ones.
    #expect(try migrate(Self.articles.replacingOccurrences(of: "var body = \"\"", with: "var body = \"-\"") + extras) == nil)
  }

  @Test func theBuildWarnsAtTheModelWhoseObjectTheMigrationsLack() throws {
    try migrate(Self.articles)
    let models = try Generator(
      sources: [("Models.swift", Self.articles + "\n// @Trigger(\"t\", raw: \"AFTER INSERT ON articles BEGIN SELECT 1; END\")\nstruct Other: Table {\n  let id: Int\n}\n")]
    ).models()
    let warnings = try MigrationDrift.warnings(models: models, migrations: try MigrationFiles(directory: directory.path, root: nil))
    #expect(warnings.map { "\($0.location.line): \($0.message)" }.contains(
      #"6: the migrations do not match what this model declares yet (the next migration would create trigger "t"); run `swift package --allow-writing-to-package-directory generate-migrations`"#))
  }

  /// A full-text index and its triggers are one warning at the index's model; a rebuild of its
  /// content table that keeps the index is a warning at the table's model alone.
  @Test func theBuildWarnsOnceForAnIndexAndNotForItsContentTablesRebuild() throws {
    try migrate(Self.searchable)
    func warnings(_ source: String) throws -> [String] {
      let models = try Generator(sources: [("Models.swift", source)]).models()
      return try MigrationDrift.warnings(models: models, migrations: try MigrationFiles(directory: directory.path, root: nil))
        .map { "\($0.location.line): \($0.message.prefix(60))" }
    }
    let stemmed = Self.searchable.replacingOccurrences(of: "// @FTS5(content: Article.self)", with: "// @FTS5(content: Article.self, tokenize: \"porter\")")
    #expect(try warnings(stemmed) == ["7: the migrations do not match 'ArticleText' yet (the next migr"])
    let rebuilt = Self.searchable.replacingOccurrences(of: "var title = \"\"", with: "var title = \"Untitled\"")
    #expect(try warnings(rebuilt) == ["1: the migrations do not match 'Article' yet (the next migratio"])
  }
}

extension SchemaObjectPlanningTests {
  @Test func aDeclaredViewMarkedUnmanagedIsLeftToTheMigrations() throws {
    let view = "\n// @View(raw: \"SELECT id, title FROM articles\")\nstruct Listed: Table {\n  let id: UUID\n  let title: String\n}\n"
    try migrate(Self.articles + view)
    #expect(try migrate(Self.articles + view.replacingOccurrences(of: "struct Listed", with: "// @Unmanaged\nstruct Listed")) == nil)
    #expect(try SchemaIntrospector.introspect(database).objects.map(\.name) == ["listeds"])
  }
}

extension SchemaObjectPlanningTests {
  @Test func aChangedTriggerIsRecreatedAndARemovedOneDropped() throws {
    let trigger = { (title: String) in
      Self.articles
        + "\n// @Trigger(\"articles_default_title\", raw: \"AFTER INSERT ON articles WHEN new.title = '' BEGIN UPDATE articles SET title = '\(title)' WHERE rowid = new.rowid; END\")\nstruct Other: Table {\n  let id: Int\n}\n"
    }
    try migrate(trigger("Untitled"))
    let changed = try #require(try migrate(trigger("New")))
    #expect(changed.summary == [#"drop trigger "articles_default_title""#, #"create trigger "articles_default_title""#])
    try database.execute("INSERT INTO articles (body) VALUES ('x')")
    #expect(try strings("SELECT title AS value FROM articles") == ["New"])
    let dropped = try #require(try migrate(Self.articles + "\nstruct Other: Table {\n  let id: Int\n}\n"))
    #expect(dropped.summary == [#"drop trigger "articles_default_title""#])
    try database.execute("INSERT INTO articles (body) VALUES ('y')")
    #expect(try strings("SELECT title AS value FROM articles ORDER BY body") == ["New", ""])
  }
}

extension SchemaObjectPlanningTests {
  @Test func migrationsThatCallTheAppsFunctionsAreChecked() throws {
    let functions = """

      let shout = ScalarFunction("shout") { (text: String) -> String in text.uppercased() }
      let longest = Strata.AggregateFunction<String, String?>("longest") { $0.max { $0.count < $1.count } }
      """
    try migrate(Self.articles + functions)
    try AtomicFile.write(
      #"UPDATE "articles" SET "title" = "shout"("title") WHERE "title" <> (SELECT "longest"("body") FROM "articles");"#,
      to: directory.appendingPathComponent("0002_shout_titles.sql").path)
    // A view that calls the function is checked on the scratch database too.
    let view = "\n// @View(raw: \"SELECT shout(title) FROM articles\")\nstruct Shouted: Table {\n  let title: String\n}\n"
    let migration = try #require(try migrate(Self.articles + functions + view))
    #expect(migration.summary == [#"create view "shouteds""#])
    let models = try Generator(sources: [("Models.swift", Self.articles + functions + view)]).models()
    #expect(models.functions.map { "\($0.name) \($0.isAggregate) \($0.location.line)" } == ["shout false 6", "longest true 7"])
    #expect(try MigrationDrift.warnings(models: models, migrations: try MigrationFiles(directory: directory.path, root: nil)).isEmpty)
    // Without the declarations, SQLite does not know the functions, and says so at the migration.
    #expect(errors(Self.articles + view).contains { $0.contains("no such function: shout") })
  }
}

/// Generated columns the models declare (`@Generated(raw:)`), planned with rows in the table.
extension SchemaObjectPlanningTests {
  static let lines = """
    struct Line: Table, Identifiable {
      let id: Int
      var price = 0.0
      var quantity = 0
    }
    """

  @Test func aGeneratedColumnIsAddedByARebuildThatComputesItForEveryRow() throws {
    try migrate(Self.lines)
    try database.execute("INSERT INTO lines (price, quantity) VALUES (1.5, 2), (2.0, 5)")
    let withTotal = Self.lines.replacingOccurrences(
      of: "  var quantity = 0\n", with: "  var quantity = 0\n  // @Generated(raw: \"price * quantity\")\n  var total: Double\n")
    let migration = try #require(try migrate(withTotal))
    #expect(migration.summary == [#"rebuild table "lines", copying every row, because column "total" is added, and it is a generated column"#])
    #expect(migration.sql.contains(#"  "total" REAL NOT NULL GENERATED ALWAYS AS (price * quantity) VIRTUAL"#), "\(migration.sql)")
    #expect(migration.sql.contains(#"INSERT INTO "strata_new_lines" ("id", "price", "quantity") SELECT "id", "price", "quantity" FROM "lines";"#))
    #expect(try strings("SELECT total AS value FROM lines ORDER BY id") == ["3.0", "10.0"])
    #expect(try migrate(withTotal) == nil)

    // A new expression, stored: another rebuild, computed again.
    let stored = withTotal.replacingOccurrences(
      of: "// @Generated(raw: \"price * quantity\")", with: "// @Generated(raw: \"round(price * quantity)\", stored: true)")
    let changed = try #require(try migrate(stored))
    #expect(changed.summary == [#"rebuild table "lines", copying every row, because column "total" changes its generated expression"#])
    #expect(try strings("SELECT total AS value FROM lines ORDER BY id") == ["3.0", "10.0"])

    // No longer generated: the column keeps the values it had, now stored.
    let plain = stored.replacingOccurrences(of: "  // @Generated(raw: \"round(price * quantity)\", stored: true)\n  var total: Double\n", with: "  var total: Double?\n")
    let unGenerated = try #require(try migrate(plain))
    #expect(unGenerated.summary.first?.contains(#"column "total" is no longer generated"#) == true, "\(unGenerated.summary)")
    try database.execute("UPDATE lines SET quantity = 0")
    #expect(try strings("SELECT total AS value FROM lines ORDER BY id") == ["3.0", "10.0"])
  }

  @Test func aColumnWithValuesDoesNotBecomeGenerated() throws {
    try migrate(Self.lines + "\nextension Line {}\n")
    let generated = Self.lines.replacingOccurrences(of: "  var quantity = 0\n", with: "  // @Generated(raw: \"2\")\n  var quantity: Int\n")
    #expect(errors(generated) == [
      #"5: table "lines": column "quantity" holds values, and making it generated would replace them with computed ones; add the generated column under another name, then drop this one"#
    ])
  }

  @Test func generatedColumnErrorsAreAtTheirLine() {
    #expect(
      errors("struct T: Table {\n  let id: Int\n  // @Generated(raw: \"1\")\n  var x = 0\n}\n") == [
        "3: 'x' is a generated column, which has no default: remove its initial value or @Default(raw:)"
      ])
    #expect(
      errors("struct T: Table {\n  // @Generated(raw: \"1\")\n  let id: Int\n}\n") == [
        "2: 'id' is the primary key, which cannot be a generated column"
      ])
    #expect(
      errors("struct T: Table {\n  let id: Int\n  // @Generated(raw: \"1; DROP TABLE t\")\n  var x: Int\n}\n").first?.contains(
        "@Generated(raw:) contains ';', which would end the statement") == true)
  }
}

extension SchemaObjectPlanningTests {
  @Test func renamingTheContentTableRecreatesTheIndexOverItsNewName() throws {
    try migrate(Self.searchable)
    try database.execute("INSERT INTO articles (title, body) VALUES ('Rice', 'simmer'), ('Bread', 'knead')")
    let renamed = Self.searchable.replacingOccurrences(of: "struct Article: Table", with: "// @Renamed(from: \"articles\")\n// @Table(\"posts\")\nstruct Article: Table")
    let migration = try #require(try migrate(renamed))
    #expect(migration.summary.first == #"rename table "articles" to "posts""#)
    #expect(migration.sql.contains(#"content='posts'"#), "\(migration.sql)")
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'knead'") == ["Bread"])
    try database.execute("INSERT INTO posts (title, body) VALUES ('Soup', 'stir')")
    #expect(try strings("SELECT title AS value FROM articleTexts WHERE articleTexts MATCH 'stir'") == ["Soup"])
    try database.execute("INSERT INTO articleTexts(articleTexts, rank) VALUES ('integrity-check', 1)")
    #expect(try migrate(renamed) == nil)
  }
}

extension SchemaObjectPlanningTests {
  @Test func aViewMayReadATableOnlyTheMigrationsMake() throws {
    // The unmanaged model reads two of the table's three columns; the view reads the third.
    let note = "\n// @Unmanaged\nstruct Note: Table {\n  let id: Int\n  var text: String?\n}\n"
    try migrate(Self.articles)
    let handMade = #"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "text" TEXT, "mood" TEXT) STRICT;"#
    try AtomicFile.write(handMade, to: directory.appendingPathComponent("0002_notes.sql").path)
    try database.execute(handMade + #"INSERT INTO "notes" ("text", "mood") VALUES ('hello', 'calm');"#)
    let view = "\n// @View(raw: \"SELECT text || ' (' || mood || ')' FROM notes\")\nstruct NoteView: Table {\n  let text: String\n}\n"
    let migration = try #require(try migrate(Self.articles + note + view))
    #expect(migration.summary == [#"create view "noteViews""#])
    #expect(try strings("SELECT text AS value FROM noteViews") == ["hello (calm)"])
  }
}
