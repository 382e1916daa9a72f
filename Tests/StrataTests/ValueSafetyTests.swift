import Foundation
import Strata
import Testing

/// A migration never changes a value it was not told to: a type change converts what converts
/// exactly and stops, naming the row, before changing anything otherwise; it never leaves a value
/// the model cannot read. Each case with rows, through the generator's migrations and
/// `database.migrate`.
@Suite struct ValueSafetyTests {
  let history: ModelHistory
  let database: any DatabaseWriter

  init() throws {
    history = try ModelHistory()
    database = try openDatabase(.inMemory)
  }

  static func model(_ type: String, _ annotations: String = "") -> String {
    """
    struct Reading: Table, Identifiable {
      let id: Int
      \(annotations)
      var value: \(type)
    }
    """
  }

  /// Creates `readings` with `values`, stored as the SQL literals given, in rows 1, 2, …
  func start(_ type: String, values: [String]) throws {
    try history.generate(Self.model(type))
    try database.migrate(try history.migrations)
    try database.write { db in
      for (offset, value) in values.enumerated() {
        try db.execute(sql: "INSERT INTO readings (id, value) VALUES (\(offset + 1), \(value))")
      }
    }
  }

  /// The stored values, as SQL writes them (reals with all their digits).
  func values() throws -> [String] {
    try database.read { db in
      try String.fetchAll(db, sql: "SELECT CASE typeof(value) WHEN 'real' THEN printf('%!.17g', value) ELSE quote(value) END FROM readings ORDER BY id")
    }
  }

  /// Migrates to `type`, expecting the migration to stop with `message` and change nothing.
  func expectStop(at type: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try values()
    try history.generate(Self.model(type))
    let error = try #require(throws: StrataError.self, sourceLocation: sourceLocation) { try database.migrate(try history.migrations) }
    #expect(error.message == message, sourceLocation: sourceLocation)
    #expect(try values() == before, sourceLocation: sourceLocation)
    #expect(try database.migrationState(try history.migrations) == .pending([try history.migrations.last!.name]), sourceLocation: sourceLocation)
  }

  static func stopped(_ message: String) -> String {
    #"the migration "0002_rebuild_readings" stopped before changing anything: "# + message
  }

  @Test func intToDoubleStopsAboveTwoToThe53AndConvertsWithConsent() throws {
    try start("Int", values: ["1", "9007199254740993", "9223372036854775807"])
    try expectStop(
      at: "Double",
      Self.stopped(
        #"row 2 holds 9007199254740993 in "readings"."value", which becomes 9007199254740992.0 as REAL: the migration changes nothing. Update the value in an earlier migration, or mark the property // @AllowLossyConversion to convert such values anyway"#
      ))

    // The migration ran nowhere yet: write it again with the user's consent for this column.
    try history.discardNewest()
    let migration = try #require(try history.generate(Self.model("Double", "// @AllowLossyConversion")))
    #expect(
      migration.summary == [
        #"rebuild table "readings", copying every row, because column "value" changes type from INTEGER to REAL; converts "value" to REAL with SQLite's CAST even where a value changes, as // @AllowLossyConversion allows"#
      ])
    try database.migrate(try history.migrations)
    #expect(try values() == ["1.0", "9007199254740992.0", "9.2233720368547758e+18"])
  }

  @Test func exactConversionsRun() throws {
    try start("Int", values: ["1", "-42", "9007199254740992"])
    try history.generate(Self.model("Double"))
    try database.migrate(try history.migrations)
    #expect(try values() == ["1.0", "-42.0", "9007199254740992.0"])
    try history.generate(Self.model("String"))
    try database.migrate(try history.migrations)
    #expect(try values() == ["'1.0'", "'-42.0'", "'9007199254740992.0'"])
    try history.generate(Self.model("Double"))
    try database.migrate(try history.migrations)
    try history.generate(Self.model("Int"))
    try database.migrate(try history.migrations)
    #expect(try values() == ["1", "-42", "9007199254740992"])
  }

  @Test func doublesBecomeTheTextOfAllTheirDigitsAndBack() throws {
    try start("Double", values: ["1.5", "0.30000000000000004", "9007199254740993.0", "1e300"])
    try history.generate(Self.model("String"))
    try database.migrate(try history.migrations)
    // SQLite's CAST would give '0.3' and '9.00719925474099e+15', which read back as other numbers.
    #expect(try values() == ["'1.5'", "'0.30000000000000004'", "'9007199254740992.0'", "'1.0e+300'"])
    try history.generate(Self.model("Double"))
    try database.migrate(try history.migrations)
    #expect(try values() == ["1.5", "0.30000000000000004", "9007199254740992.0", "1.0e+300"])
  }

  @Test(arguments: [("'007'", "7"), ("'1e3'", "1"), ("' 42 '", "42"), ("'forty'", "0")])
  func stringToIntStopsOnTextThatIsNotTheIntegersOwn(text: String, becomes: String) throws {
    try start("String", values: ["'42'", text])
    try expectStop(
      at: "Int",
      Self.stopped(
        #"row 2 holds \#(text) in "readings"."value", which becomes \#(becomes) as INTEGER: the migration changes nothing. Update the value in an earlier migration, or mark the property // @AllowLossyConversion to convert such values anyway"#
      ))
  }

  @Test func stringToDoubleStopsOnAnInfinity() throws {
    try start("String", values: ["'2.5'", "'1e400'"])
    try expectStop(
      at: "Double",
      Self.stopped(
        #"row 2 holds '1e400' in "readings"."value", which becomes Inf as REAL: the migration changes nothing. Update the value in an earlier migration, or mark the property // @AllowLossyConversion to convert such values anyway"#
      ))
  }

  @Test func anIntegerKeyDoesNotBecomeAUUIDNorADate() throws {
    try start("Int", values: ["1", "1700000000"])
    try expectStop(
      at: "UUID",
      Self.stopped(
        #"row 1 holds '1' in "readings"."value", which the model cannot read as UUID: the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"#
      ))
    try history.discardNewest()
    try expectStop(
      at: "Date",
      Self.stopped(
        #"row 1 holds '1' in "readings"."value", which the model cannot read as Date: the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"#
      ))
  }

  @Test func stringToUUIDChecksTheTextItKeeps() throws {
    try start("String", values: ["'8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2e'", "'not a uuid'"])
    // The column stays TEXT: the migration only checks the values, from the snapshot's types.
    let migration = try #require(try history.generate(Self.model("UUID")))
    #expect(migration.fileName == "0002_check_readings_value.sql")
    #expect(
      migration.summary == [
        #"check "readings"."value", changing nothing: fails, naming the row, if a value of "value" is not one the model reads as UUID"#
      ])
    let error = try #require(throws: StrataError.self) { try database.migrate(try history.migrations) }
    #expect(
      error.message
        == #"the migration "0002_check_readings_value" stopped before changing anything: row 2 holds 'not a uuid' in "readings"."value", which the model cannot read as UUID: the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"#
    )
    try database.write { db in try db.execute(sql: "UPDATE readings SET value = '0B2F0A6B-1C2E-4B8A-9D55-8C3F0D845D5E' WHERE id = 2") }
    try database.migrate(try history.migrations)
    #expect(try history.generate(Self.model("UUID")) == nil)
  }

  @Test func aUniqueColumnsDefaultIsNotGivenToSeveralNulls() throws {
    try history.generate(Self.model("Int?", "// @Unique"))
    try database.migrate(try history.migrations)
    try database.write { db in try db.execute(sql: "INSERT INTO readings (id, value) VALUES (1, 5), (2, NULL), (3, NULL)") }
    try history.generate(Self.model("Int = 0", "// @Unique"))
    let error = try #require(throws: StrataError.self) { try database.migrate(try history.migrations) }
    #expect(
      error.message
        == Self.stopped(
          #"row 2 has no "value" (NULL) and would get the default 0, but "readings"."value" is UNIQUE and another row would hold it too: give those rows distinct values in an earlier migration"#
        ))
    try database.write { db in try db.execute(sql: "UPDATE readings SET value = 7 WHERE id = 3") }
    try database.migrate(try history.migrations)
    #expect(try values() == ["5", "0", "7"])
  }
}
