import Foundation
import Strata
import Testing

/// A baseline migration (the schema `strata import` read from an existing database) runs on a
/// new database and is recorded without running on one that already holds its schema, so an
/// app's existing users keep their rows.
@Suite struct BaselineMigrationTests {
  static let baseline = Migration(
    name: "0001_imported_schema", checksum: "c0ffee", isBaseline: true,
    sql: """
      -- strata: baseline
      CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE INDEX player_name ON player(name);
      CREATE VIEW player_names AS SELECT name FROM player;
      """)
  static let next = Migration(name: "0002_add_player_score", checksum: "beef", sql: #"ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0;"#)

  /// A database as a GRDB app left it: its schema, its rows, its own migration names.
  static func existingDatabase() throws -> any DatabaseWriter {
    let database = try openDatabase(.inMemory)
    try database.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1');
          CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE INDEX player_name ON player(name);
          CREATE VIEW player_names AS SELECT name FROM player;
          INSERT INTO player (name) VALUES ('Arthur'), ('Barbara');
          """)
    }
    return database
  }

  @Test func anExistingDatabaseKeepsItsRowsAndRunsTheMigrationsAfterTheBaseline() throws {
    let database = try Self.existingDatabase()
    try database.migrate([Self.baseline, Self.next])
    let rows = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id").map { [$0["name"] as String, String($0["score"] as Int)] }
    }
    #expect(rows == [["Arthur", "0"], ["Barbara", "0"]])
    let applied = try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    #expect(applied == ["0001_imported_schema", "0002_add_player_score", "v1"])
    let checksums = try database.read { db in try String.fetchAll(db, sql: "SELECT checksum FROM strata_migrations ORDER BY name") }
    #expect(checksums == ["c0ffee", "beef"])
  }

  @Test func aNewDatabaseRunsTheBaseline() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.baseline, Self.next])
    let objects = try database.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE name IN ('player', 'player_name', 'player_names') ORDER BY name")
    }
    #expect(objects == ["player", "player_name", "player_names"])
    #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") } == 0)
  }

  @Test func aDatabaseWithOtherTablesIsRefusedNamingWhatItLacks() throws {
    let database = try openDatabase(.inMemory)
    try database.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
    #expect {
      try database.migrate([Self.baseline])
    } throws: { error in
      "\(error)".contains(#"the database has tables of its own but not the schema of the baseline migration "0001_imported_schema" (it lacks "player_name", "player_names")"#)
    }
    // Nothing changed, not even the migrator's own table.
    #expect(try database.read { db in try db.tableExists("grdb_migrations") } == false)
  }
}
