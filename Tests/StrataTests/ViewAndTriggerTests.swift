import Foundation
import Strata
import Testing

/// Views and triggers: the ones the models declare, which the migrations created, and temporary
/// ones built from Strata statements at runtime, in StructuredQueries' spelling (seed 004).
@Suite struct ViewAndTriggerTests {
  let database: any DatabaseWriter

  init() throws {
    database = try testDatabase()
    try database.write { db in
      try db.seed {
        Article.Draft(title: "Published", body: "One", isPublished: true)
        Article.Draft(title: "Draft", body: "Two")
        TodoList.Draft(title: "Business")
        TodoList.Draft(title: "Home")
      }
    }
  }

  @Test func aDeclaredViewIsReadLikeATable() throws {
    let query = PublishedArticle.order(by: \.id)
    expectSQL(
      query,
      #"SELECT "publishedArticles"."id", "publishedArticles"."title" FROM "publishedArticles" ORDER BY "publishedArticles"."id""#)
    #expect(try database.read { try query.fetchAll($0) }.map(\.title) == ["Published"])
    try database.write { db in try Article.find(2).update { $0.isPublished = true }.execute(db) }
    #expect(try database.read { try PublishedArticle.find(2).fetchOne($0) }?.title == "Draft")
    // SQLite refuses writes to a view that has no INSTEAD OF trigger, naming it.
    #expect(throws: (any Error).self) {
      try database.write { db in try PublishedArticle.delete().execute(db) }
    }
  }

  @Test func aDeclaredInsteadOfTriggerMakesADeclaredViewWritable() throws {
    try database.write { db in
      try PublishedArticle.insert { PublishedArticle(id: 0, title: "Through the view") }.execute(db)
    }
    let articles = try database.read { try Article.order(by: \.id).fetchAll($0) }
    #expect(articles.map(\.title) == ["Published", "Draft", "Through the view"])
    #expect(articles.map(\.isPublished) == [true, false, true])
  }

  @Test func aDeclaredTriggerRunsOnItsTable() throws {
    try database.write { db in
      try Article.find(1).update { $0.body = "One, edited" }.execute(db)
      try Article.find(1).update { $0.body = "One, edited again" }.execute(db)
      try Article.find(1).update { $0.title = "Renamed" }.execute(db)
    }
    #expect(try database.read { try Article.find(1).fetchOne($0) }?.editCount == 2)
  }

  @Test func aTemporaryViewFromAStrataSelect() throws {
    let create = TodoWithList.createTemporaryView(
      as: Todo.join(TodoList.all) { $0.todoListID.eq($1.id) }
        .where { $1.title.neq("Nobody's") }
        .select { TodoWithList.Columns(todoTitle: $0.title, todoListTitle: $1.title) })
    // A view cannot have parameters: the value is written into it, quoted.
    expectSQL(
      create,
      #"CREATE TEMPORARY VIEW "todoWithLists" ("todoTitle", "todoListTitle") AS SELECT "todos"."title" AS "todoTitle", "todoLists"."title" AS "todoListTitle" FROM "todos" JOIN "todoLists" ON "todos"."todoListID" = "todoLists"."id" WHERE "todoLists"."title" <> 'Nobody''s'"#)
    #expect(create.queryFragment.bindings.isEmpty)
    try database.write { db in
      try create.execute(db)
      try db.seed {
        Todo.Draft(title: "Standup", todoListID: 1)
        Todo.Draft(title: "Laundry", todoListID: 2)
      }
    }
    let query = TodoWithList.order { ($0.todoListTitle, $0.todoTitle) }.limit(10)
    expectSQL(
      query,
      #"SELECT "todoWithLists"."todoTitle", "todoWithLists"."todoListTitle" FROM "todoWithLists" ORDER BY "todoWithLists"."todoListTitle", "todoWithLists"."todoTitle" LIMIT 10"#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.todoTitle) == ["Standup", "Laundry"])
    #expect(rows.map(\.todoListTitle) == ["Business", "Home"])
    try database.write { db in try create.drop().execute(db) }
    #expect(throws: (any Error).self) { try database.read { try TodoWithList.all.fetchAll($0) } }
  }

  @Test func inlinedValuesMeanWhatTheBoundValuesWould() throws {
    // A view cannot take parameters, so its values are literals: the same values SQLite would
    // have stored for the bindings.
    for value in [1.5, .infinity, -.infinity, .nan, 1e-300, 0.1 + 0.2] {
      let inlined = QueryBinding.real(value).description
      let read = try database.read { db in try Double.fetchOne(db, sql: "SELECT " + inlined) }
      let bound = try database.read { db in try Double.fetchOne(db, sql: "SELECT ?", arguments: [value]) }
      #expect(read == bound, "\(value): \(inlined)")
    }
  }

  @Test func anInsteadOfTriggerMakesATemporaryViewWritable() throws {
    try database.write { db in
      try TodoWithList.createTemporaryView(
        as: Todo.join(TodoList.all) { $0.todoListID.eq($1.id) }
          .select { TodoWithList.Columns(todoTitle: $0.title, todoListTitle: $1.title) }
      ).execute(db)
      let trigger = TodoWithList.createTemporaryTrigger(
        "insert_todoWithLists",
        insteadOf: .insert { new in
          Todo.insert { ($0.title, $0.todoListID) } select: {
            TodoList.where { $0.title.eq(new.todoListTitle) }.select { (new.todoTitle, $0.id) }
          }
        })
      expectSQL(
        trigger,
        #"CREATE TEMPORARY TRIGGER "insert_todoWithLists" INSTEAD OF INSERT ON "todoWithLists" FOR EACH ROW BEGIN INSERT INTO "todos" ("title", "todoListID") SELECT "new"."todoTitle", "todoLists"."id" FROM "todoLists" WHERE "todoLists"."title" = "new"."todoListTitle"; END"#)
      try trigger.execute(db)
      try TodoWithList.insert { TodoWithList(todoTitle: "Morning sync", todoListTitle: "Business") }.execute(db)
    }
    let todos = try database.read { try Todo.all.fetchAll($0) }
    #expect(todos.map(\.title) == ["Morning sync"])
    #expect(todos.map(\.todoListID) == [1])
  }

  @Test func seedTriggerSetsThePositionToTheNextOne() throws {
    let trigger = Todo.createTemporaryTrigger(
      after: .insert { new in
        Todo.find(new.id).update { $0.position = Todo.select { ($0.position.max() ?? -1) + 1 } }
      })
    #expect(
      trigger.queryFragment.description.hasSuffix(
        #"AFTER INSERT ON "todos" FOR EACH ROW BEGIN UPDATE "todos" SET "position" = (SELECT coalesce(max("todos"."position"), -1) + 1 FROM "todos") WHERE "todos"."id" = "new"."id"; END"#))
    try database.write { db in
      try trigger.execute(db)
      for title in ["A", "B", "C"] {
        try Todo.insert { Todo.Draft(title: title, todoListID: 1) }.execute(db)
      }
    }
    let rows = try database.read { try Todo.order(by: \.id).fetchAll($0) }
    #expect(rows.map(\.position) == [1, 2, 3])
  }

  @Test func seedTriggerTouchesUpdatedAt() throws {
    let trigger = Todo.createTemporaryTrigger("touch_todos", after: .update(touch: \.updatedAt))
    expectSQL(
      trigger,
      #"CREATE TEMPORARY TRIGGER "touch_todos" AFTER UPDATE ON "todos" FOR EACH ROW BEGIN UPDATE "todos" SET "updatedAt" = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE "todos"."rowid" = "new"."rowid"; END"#)
    let before = Date()
    try database.write { db in
      try trigger.execute(db)
      try Todo.insert { Todo.Draft(title: "Plan", todoListID: 1) }.execute(db)
      try Todo.find(1).update { $0.title = "Plan the week" }.execute(db)
    }
    let todo = try #require(try database.read { try Todo.find(1).fetchOne($0) })
    let updatedAt = try #require(todo.updatedAt)
    #expect(updatedAt.timeIntervalSince(before) > -1 && updatedAt.timeIntervalSince(before) < 60)
  }

  @Test func updateOfColumnsWithAConditionAndADelete() throws {
    try database.write { db in
      try TodoList.createTemporaryTrigger(
        "log_renames",
        after: .update(of: { $0.title }) { old, new in
          Article.insert { ($0.title, $0.body) } select: { Values(new.title, old.title) }
        } when: { old, new in old.title.neq(new.title) }
      ).execute(db)
      try TodoList.createTemporaryTrigger(
        "log_deletes", before: .delete { old in Article.insert { ($0.title, $0.body) } select: { Values("deleted", old.title) } }
      ).execute(db)
      try TodoList.find(2).update { $0.title = "Home" }.execute(db)
      try TodoList.find(2).update { $0.title = "House" }.execute(db)
      try TodoList.find(1).delete().execute(db)
    }
    let log = try database.read { try Article.where { $0.id > 2 }.order(by: \.id).select { ($0.title, $0.body) }.fetchAll($0) }
    #expect(log.map(\.0) == ["House", "deleted"])
    #expect(log.map(\.1) == ["Home", "Business"])
  }
}

/// Live queries over a view and a full-text index follow writes to the tables they read.
@MainActor @Suite struct LiveViewAndSearchTests {
  @Test func liveQueriesOverAViewAndAnIndexUpdateWhenTheirTablesChange() async throws {
    let database = try testDatabase()
    let published = FetchAll(PublishedArticle.order(by: \.id), database: database)
    let found = FetchAll(ArticleText.where { $0.match("dough") }.select(\.rowid), database: database)
    #expect(await eventually { published.wrappedValue.isEmpty && found.wrappedValue.isEmpty })
    try await database.write { db in
      try Article.insert { Article.Draft(title: "Bread", body: "Knead the dough.", isPublished: true) }.execute(db)
    }
    #expect(await eventually { published.wrappedValue.map(\.title) == ["Bread"] })
    #expect(await eventually { found.wrappedValue == [1] })
    try await database.write { db in try Article.find(1).update { $0.body = "Proof it." }.execute(db) }
    #expect(await eventually { found.wrappedValue.isEmpty })
  }
}
