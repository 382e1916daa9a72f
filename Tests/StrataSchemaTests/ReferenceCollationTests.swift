import StrataSQL
import Foundation
import Testing

@testable import StrataSchema

/// A foreign key compares with its key's collation, so a column that references a `COLLATE
/// NOCASE` key must share it: otherwise looking rows up by the column misses rows that the
/// foreign key accepted.
@Suite struct ReferenceCollationTests {
  @Test func aReferenceToANocaseKeyFindsWhatTheForeignKeyAccepted() throws {
    let source = """
      struct Tag: Table {
        // @Column(primaryKey: true, collate: .nocase)
        let name: String
      }
      struct Post: Table {
        let id: Int
        // @References(Tag.self)
        var tag: String
      }
      """
    let schema = try Generator(sources: [("Models.swift", source)]).models().schema
    let database = try SQLiteConnection()
    try database.execute("PRAGMA foreign_keys = ON")
    try database.execute(SQLRenderer.schema(schema))
    try database.execute("INSERT INTO tags (name) VALUES ('Red')")
    // The foreign key matches 'red' to 'Red' with the key's NOCASE…
    try database.execute("INSERT INTO posts (tag) VALUES ('red')")
    // …and so does a lookup by the column, as a query for the tag's posts would run.
    let found = try database.rows("SELECT count(*) AS n FROM posts WHERE tag = ?", ["RED"])
    #expect(found.first?["n"] == "1")
  }
}
