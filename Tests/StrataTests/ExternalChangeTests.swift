import Foundation
import Observation
import Strata
import Testing

/// Changes GRDB's observation does not see: commits by another connection or another process,
/// and schema changes. Live queries show them within the check interval (half a second), with
/// no call from the app.
@MainActor @Suite(.serialized) struct ExternalChangeTests {
  let directory: TemporaryDirectory
  let path: String

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.path("db.sqlite")
  }

  /// A plain GRDB connection to the same file, as another library or a second database object
  /// would open.
  func otherConnection() throws -> DatabaseQueue {
    try DatabaseQueue(path: path)
  }

  @Test(arguments: [false, true])
  func anotherConnectionsCommitShowsWithoutACall(pooled: Bool) async throws {
    let database = try organizationDatabase(.file(path), pooled: pooled)
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: database)
    let count = FetchOne(wrappedValue: 0, Employee.count(), database: database, delivery: .immediately)
    let tracker = Tracker(.mainActor) { names.wrappedValue.joined(separator: ",") }
    #expect(names.wrappedValue == ["Ada", "Grace", "Ken", "Linus"])

    try await otherConnection().write { db in
      try db.execute(sql: "INSERT INTO employees (name, salary) VALUES ('Barbara', 1)")
    }
    #expect(await eventually(within: 2) { names.wrappedValue == ["Ada", "Barbara", "Grace", "Ken", "Linus"] })
    #expect(await eventually(within: 2) { count.wrappedValue == 5 })
    // Observation announced it: the tracker registers again from the main queue.
    #expect(await eventually { tracker.last == "Ada,Barbara,Grace,Ken,Linus" })
  }

  @Test func anotherProcesssCommitsShowWithoutACall() async throws {
    let database = try openDatabase(.file(path), pooled: true)
    try await database.write { db in
      try createScorekeeperTables(db)
      try Game.insert { Game.Draft(id: UUID(1), title: "Shared") }.execute(db)
      try Player.insert { Player.Draft(gameID: UUID(1), name: "Player 0") }.execute(db)
    }
    let score = FetchOne(Player.where { $0.name.eq("Player 0") }.select(\.score), database: database)
    let tracker = Tracker(.mainActor) { "\(score.wrappedValue ?? -1)" }
    #expect(score.wrappedValue == 0)

    let writer = try ExternalProcess.start(["external-writer", path, "3", "300"])
    var seen: [Int] = []
    // Generous: a loaded machine can take many seconds just to start the writer; the loop ends
    // as soon as the last value shows.
    let deadline = Date().addingTimeInterval(90)
    while seen.last != 3, Date() < deadline {
      if let value = score.wrappedValue, value != seen.last ?? 0 { seen.append(value) }
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(try await writer.finish(timeout: 120).status == 0)
    // Commits 300 ms apart, checks every 500 ms: the value may skip one, but ends on the last.
    #expect(seen.last == 3)
    #expect(await eventually { tracker.last == "3" })
  }

  @Test(arguments: [false, true])
  func aReadOnlyConnectionSeesTheWritersCommits(pooled: Bool) async throws {
    _ = try organizationDatabase(.file(path), pooled: true)
    var configuration = Configuration()
    configuration.readonly = true
    let reader = try openDatabase(.file(path), pooled: pooled, configuration: configuration)
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: reader)
    #expect(names.wrappedValue.count == 4)

    try await otherConnection().write { db in try db.execute(sql: "DELETE FROM employees WHERE name = 'Ken'") }
    #expect(await eventually(within: 2) { names.wrappedValue == ["Ada", "Grace", "Linus"] })
    #expect(names.loadError == nil)
  }

  @Test func aDroppedTableSetsTheErrorAndARecreatedOneBringsRowsBack() async throws {
    let database = try organizationDatabase(.file(path), pooled: true)
    let documents = FetchAll(Document.order(by: \.title).select(\.title), database: database)
    let count = FetchOne(wrappedValue: 0, Document.count(), database: database)
    #expect(documents.wrappedValue == ["Notes", "Plan"])

    try await otherConnection().write { db in try db.execute(sql: "DROP TABLE documents") }
    #expect(await eventually(within: 2) { documents.loadError != nil && count.loadError != nil })
    #expect(documents.loadError.map { "\($0)".contains("no such table: documents") } == true)
    // The last good value stays.
    #expect(documents.wrappedValue == ["Notes", "Plan"])

    try await otherConnection().write { db in
      try db.execute(
        sql: """
          CREATE TABLE documents (id INTEGER PRIMARY KEY, title TEXT NOT NULL, isDeleted INTEGER NOT NULL) STRICT;
          INSERT INTO documents (title, isDeleted) VALUES ('Memo', 0);
          """)
    }
    #expect(await eventually(within: 2) { documents.wrappedValue == ["Memo"] && count.wrappedValue == 1 })
    #expect(documents.loadError == nil && count.loadError == nil)
  }

  @Test func aColumnDroppedOnTheSameConnectionSetsTheError() async throws {
    let database = try organizationDatabase(.file(path))
    let salaries = FetchAll(Employee.order(by: \.id).select(\.salary), database: database)
    #expect(salaries.wrappedValue.count == 4)
    // Through the database the live query reads: GRDB reports no change of rows.
    try await database.write { db in try db.execute(sql: "ALTER TABLE employees DROP COLUMN salary") }
    #expect(await eventually(within: 2) { salaries.loadError != nil })
    #expect(salaries.loadError.map { "\($0)".contains("no such column") } == true)
  }

  @Test func aMigrationShowsAtOnce() async throws {
    let database = try organizationDatabase(.file(path))
    let titles = FetchAll(Document.order(by: \.title).select(\.title), database: database)
    ExternalChanges.checkInterval = nil
    defer { ExternalChanges.checkInterval = .milliseconds(500) }
    // A rebuild that keeps the rows and adds one: the migrator's own connection, no checks on a
    // schedule; `migrate` checks when it finishes.
    try database.migrate(
      StrataMigrations.all + [
        Migration(
          name: "9001_rebuild_documents",
          sql: """
            CREATE TABLE new_documents (id INTEGER PRIMARY KEY, title TEXT NOT NULL, isDeleted INTEGER NOT NULL) STRICT;
            INSERT INTO new_documents SELECT id, title, isDeleted FROM documents;
            INSERT INTO new_documents (title, isDeleted) VALUES ('Appendix', 0);
            DROP TABLE documents;
            ALTER TABLE new_documents RENAME TO documents;
            """)
      ])
    #expect(await eventually(within: 2) { titles.wrappedValue == ["Appendix", "Notes", "Plan"] })
  }

  @Test func withoutScheduledChecksAnExplicitCheckShowsTheChange() async throws {
    let database = try organizationDatabase(.file(path), pooled: true)
    ExternalChanges.checkInterval = nil
    ExternalChanges.watchesFiles = false
    defer {
      ExternalChanges.checkInterval = .milliseconds(500)
      ExternalChanges.watchesFiles = true
    }
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: database)
    // A pool's observation finishes starting on the writer, where it would see a commit that
    // raced its first fetch; an empty write queued after it waits for that.
    try await database.writeWithoutTransaction { _ in }
    try await otherConnection().write { db in try db.execute(sql: "DELETE FROM employees WHERE name = 'Ada'") }
    await settle()
    try await Task.sleep(for: .milliseconds(600))
    #expect(names.wrappedValue.count == 4)
    ExternalChanges.check(database)
    #expect(await eventually(within: 2) { names.wrappedValue == ["Grace", "Ken", "Linus"] })
  }

  /// With the files watched, another connection's commit shows without a scheduled check: the
  /// change of the file is the signal.
  @Test(arguments: [false, true])
  func aChangeOnDiskIsCheckedAtOnce(pooled: Bool) async throws {
    let database = try organizationDatabase(.file(path), pooled: pooled)
    ExternalChanges.checkInterval = nil
    defer { ExternalChanges.checkInterval = .milliseconds(500) }
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: database)
    try await database.writeWithoutTransaction { _ in }
    try await otherConnection().write { db in try db.execute(sql: "DELETE FROM employees WHERE name = 'Ada'") }
    #expect(await eventually(within: 30) { names.wrappedValue == ["Grace", "Ken", "Linus"] })
  }
}
