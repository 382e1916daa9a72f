import Foundation
import Strata
import Testing

/// Rebuilds that the models ask for say, in the model's words, what stops them, and leave no
/// column behind that the models dropped.
@Suite struct RebuildGuardTests {
  func rows(_ database: any DatabaseWriter, _ sql: String) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: sql).map { row in row.columnNames.map { "\($0)=\(row[$0].map { "\($0)" } ?? "NULL")" }.joined(separator: " ") }
    }
  }

  /// A UNIQUE column that becomes NOCASE: values that differ only in case become duplicates,
  /// and the migration stops on them with the guard's message, not SQLite's.
  @Test func aUniqueColumnThatIgnoresCaseStopsOnValuesThatDifferOnlyInCase() throws {
    let history = try ModelHistory()
    try history.generate("struct Doc: Table { let id: Int\n  // @Unique\n  var title = \"\" }")
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { try $0.execute(sql: "INSERT INTO docs (id, title) VALUES (1, 'Apple'), (2, 'apple'), (3, 'Pear')") }
    let nocase = "struct Doc: Table { let id: Int\n  // @Unique\n  // @Column(collate: .nocase)\n  var title = \"\" }"
    try history.generate(nocase)
    #expect {
      try database.migrate(try history.migrations)
    } throws: { error in
      "\(error)".contains(
        #"stopped before changing anything: "docs"."title" cannot become UNIQUE under COLLATE NOCASE: 'Apple' is in 2 rows, as NOCASE compares them; remove the duplicates in an earlier migration"#)
        || "\(error)".contains(#"'apple' is in 2 rows, as NOCASE compares them"#)
    }
    #expect(try rows(database, "SELECT title FROM docs ORDER BY id") == ["title=Apple", "title=apple", "title=Pear"])
    try database.write { try $0.execute(sql: "UPDATE docs SET title = 'Apple 2' WHERE id = 2") }
    try database.migrate(try history.migrations)
    #expect(throws: DatabaseError.self) { try database.write { try $0.execute(sql: "INSERT INTO docs (id, title) VALUES (4, 'PEAR')") } }
  }

  /// A generated column removed from its model goes with the next migration, as other columns
  /// do (it holds no value of its own, so no consent is asked); one a hand-written migration
  /// made stays.
  @Test func aGeneratedColumnRemovedFromItsModelIsDropped() throws {
    let history = try ModelHistory()
    try history.generate("struct Line: Table { let id: Int\n  var price = 0\n  // @Generated(raw: \"price * 2\")\n  let double: Int }")
    try history.write("0002_hand_made.sql", #"ALTER TABLE "lines" ADD COLUMN "triple" INTEGER GENERATED ALWAYS AS (price * 3) VIRTUAL;"#)
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { try $0.execute(sql: "INSERT INTO lines (id, price) VALUES (1, 5)") }
    let migration = try #require(try history.generate("struct Line: Table { let id: Int\n  var price = 0 }"))
    #expect(migration.summary.first?.contains(#"generated column "double" is no longer in the model"#) == true, "\(migration.summary)")
    try database.migrate(try history.migrations)
    #expect(try rows(database, "SELECT name FROM pragma_table_xinfo('lines')") == ["name=id", "name=price", "name=triple"])
    #expect(try rows(database, "SELECT price, triple FROM lines") == ["price=5 triple=15"])
    #expect(try history.generate("struct Line: Table { let id: Int\n  var price = 0 }") == nil)
  }
}
