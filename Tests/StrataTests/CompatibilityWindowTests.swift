import Foundation
import GRDB
import Strata
import StrataSchema
import Testing

/// A compatibility window: the previous release's code (its SQL, as its generated code writes
/// it) and the new release's read and write one database between the expand step and the
/// contract step, and nothing either wrote is lost.
@Suite struct CompatibilityWindowTests {
  static let v1 = """
    struct Player: Table {
      let id: Int
      var name: String
      var score: Int = 0
    }
    """
  static let v2 = """
    struct Player: Table {
      let id: Int
      // @Renamed(from: "name")
      var displayName: String
      var score: Int = 0
    }
    """
  static let window = MigrationSettings(compatibleWith: .migration(1), releases: [.init(name: "2.3", migration: 1)])

  private func rows(_ database: any DatabaseWriter, _ columns: String) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT \(columns) FROM players ORDER BY id").map { row in
        row.columnNames.map { "\($0)=\(row[$0].map { "\($0)" } ?? "NULL")" }.joined(separator: " ")
      }
    }
  }

  @Test func aRenamedColumnKeepsItsOldNameInStepUntilTheWindowMoves() throws {
    let history = try ModelHistory()
    try history.generate(Self.v1)
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { try $0.execute(sql: "INSERT INTO players (id, name, score) VALUES (1, 'Ann', 3)") }

    let expand = try #require(try history.generate(Self.v2, settings: Self.window))
    print(expand.fileName)
    print(expand.sql)
    try database.migrate(try history.migrations)
    try database.write { db in
      // The previous release writes the old name; this one the new.
      try db.execute(sql: "INSERT INTO players (id, name, score) VALUES (2, 'Bob', 1)")
      try db.execute(sql: "INSERT INTO players (id, displayName, score) VALUES (3, 'Cy', 2)")
      try db.execute(sql: "UPDATE players SET name = 'Annie' WHERE id = 1")
      try db.execute(sql: "UPDATE players SET displayName = 'Bobby' WHERE id = 2")
    }
    #expect(try rows(database, "id, name, displayName, score") == [
      "id=1 name=Annie displayName=Annie score=3", "id=2 name=Bobby displayName=Bobby score=1", "id=3 name=Cy displayName=Cy score=2",
    ])
    let plan = try history.plan(Self.v2, settings: Self.window)
    print(plan.pending)
    #expect(plan.newMigration == nil)

    var moved = Self.window
    moved.releases.append(.init(name: "2.4", migration: 2))
    moved.compatibleWith = .migration(2)
    let contract = try #require(try history.generate(Self.v2, settings: moved))
    print(contract.fileName)
    print(contract.sql)
    try database.migrate(try history.migrations)
    #expect(try rows(database, "*") == [
      "id=1 displayName=Annie score=3", "id=2 displayName=Bobby score=1", "id=3 displayName=Cy score=2",
    ])
  }
}
