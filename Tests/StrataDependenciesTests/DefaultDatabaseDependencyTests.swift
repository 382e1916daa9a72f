import Foundation
import StrataDependencies
import Testing

/// `@Dependency(\.defaultDatabase)`, as SQLiteData users write it: the database the app reads,
/// which live queries created in its scope read too.
struct Note: Table {
  var name = ""
}

@MainActor @Suite struct DefaultDatabaseDependencyTests {
  func database(names: [String]) throws -> any DatabaseWriter {
    let database = try openDatabase(.inMemory)
    try database.write { db in
      try db.execute(sql: "CREATE TABLE notes (name TEXT NOT NULL)")
      for name in names { try db.execute(sql: "INSERT INTO notes (name) VALUES (?)", arguments: [name]) }
    }
    return database
  }

  @Test func theDependencyAndTheLiveQueriesInItsScopeReadTheSameDatabase() async throws {
    let first = try database(names: ["Buy milk"])
    let second = try database(names: ["Call Blob", "Walk dog"])
    let query = Note.order(by: \.name).select(\.name)
    try withDependencies { $0.defaultDatabase = first } operation: {
      @Dependency(\.defaultDatabase) var database
      let names = try database.read { try String.fetchAll($0, sql: "SELECT name FROM notes") }
      #expect(names == ["Buy milk"])
      #expect(FetchAll(query).wrappedValue == ["Buy milk"])
    }
    withDependencies { $0.defaultDatabase = second } operation: {
      #expect(FetchAll(query).wrappedValue == ["Call Blob", "Walk dog"])
    }
    // A live query given its database reads that one, whatever the dependency.
    withDependencies { $0.defaultDatabase = second } operation: {
      #expect(FetchAll(query, database: first).wrappedValue == ["Buy milk"])
    }
  }

  /// Unset, it reports an issue (a test failure where swift-dependencies' test support is
  /// linked) and stands in an empty in-memory database; live queries fall back to the database
  /// `DefaultDatabase.set(_:)` gave.
  @Test func anUnsetDependencyIsAnEmptyDatabaseAndLiveQueriesFallBack() throws {
    // The issue fails a test only where IssueReportingTestSupport is loaded: a build of every
    // product leaves its library beside the test binary, which then finds it.
    var tables: Int?
    withKnownIssue("the dependency is unset", isIntermittent: true) {
      @Dependency(\.defaultDatabase) var database
      tables = try? database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
    }
    #expect(tables == 0)
    let launch = try self.database(names: ["From launch"])
    DefaultDatabase.with(launch) {
      #expect(FetchAll(Note.select(\.name)).wrappedValue == ["From launch"])
    }
  }
}
