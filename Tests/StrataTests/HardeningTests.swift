import Foundation
import Strata
import Testing

/// Generated code for the models that used to trip the generator compiles (this file would not
/// build otherwise) and works: names that collide with generated members, keys that the
/// database does not make up, and the migration registry's exact copy of its files.
@Suite struct HardeningTests {
  @Test func theRegistryHoldsTheMigrationFileExactly() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Migrations/0001_create_hardening_tables.sql")
    let contents = try String(contentsOf: file, encoding: .utf8)
    #expect(contents.unicodeScalars.contains("\r") && contents.unicodeScalars.contains("\u{202E}"))
    #expect(StrataMigrations.all.map(\.name) == ["0001_create_hardening_tables", "0002_create_categories_comments_and_8_more", "0003_create_roundScores", "0004_drop_index_roundScores_on_gameID", "0005_create_lineItems_memos_and_8_more", "0006_create_attachments_and_shipments", "0007_drop_4_objects_and_create_4_tables", "0008_rebuild_attachments_and_shipments", "0009_create_records_metadata_and_2_more"])
    #expect(StrataMigrations.all.first?.sql == contents)
  }

  @Test func propertiesNamedLikeGeneratedMembersRoundTrip() throws {
    let database = try testDatabase()
    let gadget = try database.write { db in
      try Gadget.insert {
        Gadget.Draft(
          decoder: "d", bindings: 2, Type: 3, default: true, columns: 4, tableName: "t", resultColumns: 5,
          queryColumnCount: 6)
      }.returning { $0 }.fetchOne(db)
    }
    #expect(gadget?.decoder == "d")
    #expect(gadget?.bindings == 2)
    #expect(gadget?.Type == 3)
    #expect(gadget?.default == true)
    #expect(gadget?.columns == 4)
    #expect(gadget?.tableName == "t")
    #expect(gadget?.resultColumns == 5)
    #expect(gadget?.queryColumnCount == 6)
    #expect(Gadget.tableName == "gadgets")

    let rows = try database.read { db in
      try Gadget.where { $0.Type.eq(3) }
        .select { GadgetRow.Columns(resultColumns: $0.resultColumns, decoder: $0.decoder) }
        .fetchAll(db)
    }
    #expect(rows.map(\.resultColumns) == [5])
    #expect(rows.map(\.decoder) == ["d"])
  }

  @Test func aKeyThatIsAForeignKeyIsRequiredAndCascades() throws {
    let database = try testDatabase()
    try database.write { db in
      try Gadget.insert { Gadget.Draft(id: 7) }.execute(db)
      let draft = GadgetDetail.Draft(gadgetID: 7, notes: "fragile")
      // The draft's key is the gadget's id, not an optional one the database would fill in.
      let key: Gadget.ID = draft.gadgetID
      #expect(key == 7)
      try GadgetDetail.insert { draft }.execute(db)
      #expect(try GadgetDetail.find(7).fetchOne(db)?.notes == "fragile")
      try Gadget.find(7).delete().execute(db)
      #expect(try GadgetDetail.fetchCount(db) == 0)
    }
  }

  @Test func aNaturalTextKeyIsRequired() throws {
    let database = try testDatabase()
    try database.write { db in
      try Label.insert { Label.Draft(name: "red", color: 0xFF0000) }.execute(db)
      let label = try Label.find("red").fetchOne(db)
      #expect(label?.color == 0xFF0000)
      let name: String = Label.Draft(name: "blue").name
      #expect(name == "blue")
    }
  }

  @Test func aTableWithoutAKeyHasADraftOfEveryColumn() throws {
    let database = try catalogDatabase()
    try database.write { db in
      try seedCatalog(db)
      let before = try ItemTag.fetchCount(db)
      try ItemTag.insert { ItemTag.Draft(itemID: 2, tagID: 4) }.execute(db)
      #expect(try ItemTag.fetchCount(db) == before + 1)
      #expect(try ItemTag.where { $0.itemID.eq(2) && $0.tagID.eq(4) }.fetchCount(db) == 1)
    }
  }
}
