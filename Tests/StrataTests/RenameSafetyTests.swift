import Foundation
import Strata
import StrataSchema
import Testing

/// Renames keep each value under the name the model gives it: swapped names are swapped, a
/// rename onto a column the model drops replaces that column's values (with consent), and a
/// name whose case alone changes is renamed and said so. Through the generator's migrations and
/// `database.migrate`, with rows.
@Suite struct RenameSafetyTests {
  let history: ModelHistory
  let database: any DatabaseWriter

  init() throws {
    history = try ModelHistory()
    database = try openDatabase(.inMemory)
  }

  func rows(_ sql: String) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: sql).map { row in row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ") }
    }
  }

  @Test func swappedColumnsAreSwappedOnce() throws {
    try history.generate("struct Person: Table { let id: Int; var first = \"\"; var last = \"\" }")
    try database.migrate(try history.migrations)
    try database.write { db in try db.execute(sql: "INSERT INTO people (id, first, last) VALUES (1, 'Lovelace', 'Ada')") }

    let swapped = """
      struct Person: Table {
        let id: Int
        // @Renamed(from: "last")
        var first = ""
        // @Renamed(from: "first")
        var last = ""
      }
      """
    let migration = try #require(try history.generate(swapped))
    #expect(
      migration.summary == [
        #"rename column "last" of "people" to "first""#, #"rename column "first" of "people" to "last""#,
      ])
    #expect(migration.sql.contains(#"ALTER TABLE "people" RENAME COLUMN "last" TO "strata_renaming_last";"#))
    try database.migrate(try history.migrations)
    #expect(try rows("SELECT id, first, last FROM people") == [#"id=1 first="Ada" last="Lovelace""#])
    // The annotations can stay: the history says the swap is made.
    #expect(try history.generate(swapped) == nil)
  }

  @Test func swappedTablesAreSwappedWithTheirRows() throws {
    let first = """
      struct Cat: Table { let id: Int; var name = "" }
      struct Dog: Table { let id: Int; var barks = 0 }
      """
    try history.generate(first)
    try database.migrate(try history.migrations)
    try database.write { db in
      try db.execute(sql: "INSERT INTO cats (id, name) VALUES (1, 'Tom'); INSERT INTO dogs (id, barks) VALUES (7, 3)")
    }
    let swapped = """
      // @Table("dogs")
      // @Renamed(from: "cats")
      struct Cat: Table { let id: Int; var name = "" }
      // @Table("cats")
      // @Renamed(from: "dogs")
      struct Dog: Table { let id: Int; var barks = 0 }
      """
    let migration = try #require(try history.generate(swapped))
    #expect(migration.summary == [#"rename table "cats" to "dogs""#, #"rename table "dogs" to "cats""#])
    try database.migrate(try history.migrations)
    #expect(try rows("SELECT id, name FROM dogs") == [#"id=1 name="Tom""#])
    #expect(try rows("SELECT id, barks FROM cats") == ["id=7 barks=3"])
    #expect(try history.generate(swapped) == nil)
  }

  @Test func aRenameOntoAColumnTheModelDropsKeepsTheRenamedValues() throws {
    try history.generate("struct Item: Table { let id: Int; var a = \"\"; var b = \"\" }")
    try database.migrate(try history.migrations)
    try database.write { db in try db.execute(sql: "INSERT INTO items (id, a, b) VALUES (1, 'keep me', 'old b')") }

    let renamed = """
      struct Item: Table {
        let id: Int
        // @Renamed(from: "a")
        var b = ""
      }
      """
    do {
      try history.generate(renamed)
      Issue.record("a migration that deletes b's values was written without consent")
    } catch let error as DiagnosticsError {
      #expect(
        error.diagnostics.map(\.message) == [
          #"table "items": the model's "b" is another column renamed (@Renamed(from:)), so the column "b" has now would be dropped, deleting its values; to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"#
        ])
    }
    let migration = try #require(try history.generate(renamed, allowDataLoss: true))
    #expect(
      migration.summary == [
        #"drop column "b" of "items", deleting its values, for the column renamed to its name"#,
        #"rename column "a" of "items" to "b""#,
      ])
    try database.migrate(try history.migrations)
    #expect(try rows("SELECT * FROM items") == [#"id=1 b="keep me""#])
    #expect(try history.generate(renamed) == nil)
  }

  @Test func aTypeRenamedFromItsOldTypeNameRenamesItsTable() throws {
    try history.generate("struct Tag: Table { let id: Int; var name = \"\" }")
    try database.migrate(try history.migrations)
    try database.write { db in try db.execute(sql: "INSERT INTO tags (id, name) VALUES (1, 'red')") }
    // The old type's name, where the annotation asks for the old table's: taken for "tags".
    let renamed = "// @Renamed(from: \"Tag\")\nstruct Label: Table { let id: Int; var name = \"\" }"
    let migration = try #require(try history.generate(renamed))
    #expect(migration.summary == [#"rename table "tags" to "labels""#])
    try database.migrate(try history.migrations)
    #expect(try rows("SELECT * FROM labels") == [#"id=1 name="red""#])
  }

  @Test func aNameWhoseCaseAloneChangesIsRenamedAndSaidSo() throws {
    try history.generate("struct Item: Table { let id: Int; var name = \"\" }")
    try database.migrate(try history.migrations)
    try database.write { db in try db.execute(sql: "INSERT INTO items (id, name) VALUES (1, 'x')") }
    let recased = """
      struct Item: Table {
        let id: Int
        // @Column("Name")
        var name = ""
      }
      """
    let migration = try #require(try history.generate(recased))
    #expect(
      migration.summary == [
        #"rename column "name" of "items" to "Name" (only the case changes: SQLite compares names ignoring case, so queries read it either way)"#
      ])
    try database.migrate(try history.migrations)
    #expect(try rows("SELECT * FROM items") == [#"id=1 Name="x""#])
    #expect(try history.generate(recased) == nil)
  }
}
