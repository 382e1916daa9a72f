import Foundation
import Strata
import Testing

/// How each Swift type is stored: the SQLite type and text a value becomes, and that it reads
/// back unchanged.
@Suite struct ValueStorageTests {
  let database: any DatabaseWriter

  init() throws {
    database = try openDatabase(.inMemory)
  }

  /// The SQLite storage class and text of a bound value, as SQLite sees it.
  func stored(_ value: some QueryBindable) throws -> (type: String, text: String?) {
    let row = try database.read { db in
      try sql("SELECT typeof(\(value)), CAST(\(value) AS TEXT)", as: (String, String?).self).fetchOne(db)
    }
    return try #require(row)
  }

  /// The value read back after a round trip through SQLite.
  func roundTrip<Value: QueryBindable>(_ value: Value) throws -> Value.QueryOutput? {
    try database.read { db in try sql("SELECT \(value)", as: Value.self).fetchOne(db) }
  }

  @Test func uuidIsLowercase36CharacterText() throws {
    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    let (type, text) = try stored(uuid)
    #expect(type == "text")
    #expect(text == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    #expect(try roundTrip(uuid) == uuid)
    let upper = try database.read { db in
      try sql("SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", as: UUID.self).fetchOne(db)
    }
    #expect(upper == uuid)
  }

  @Test func dateIsUTCTextWithMilliseconds() throws {
    let date = Date(timeIntervalSince1970: 1_735_787_045.678)
    let (type, text) = try stored(date)
    #expect(type == "text")
    #expect(text == "2025-01-02 03:04:05.678")
    #expect(try roundTrip(date) == date)
    #expect(try stored(Date(timeIntervalSince1970: -0.5)).text == "1969-12-31 23:59:59.500")
    #expect(try stored(Date(timeIntervalSince1970: 951_782_400)).text == "2000-02-29 00:00:00.000")
    #expect(try stored(Date(timeIntervalSince1970: 1.0004)).text == "1970-01-01 00:00:01.000")
  }

  /// A value SQLite would not keep as given is refused, naming it, rather than stored changed:
  /// NaN (SQLite reads it as NULL) and a date outside the years 0001–9999.
  @Test func valuesSQLiteWouldChangeAreRefused() throws {
    func refusal(_ value: some QueryBindable) -> String {
      do {
        try database.read { try sql("SELECT \(value)").execute($0) }
        return "stored"
      } catch {
        return "\(error)"
      }
    }
    #expect(refusal(Double.nan).hasPrefix("parameter 1 is NaN: SQLite reads NaN as NULL"))
    #expect(
      refusal(Date.distantPast).hasPrefix(
        "parameter 1 is the date before the year range (0000-12-30 00:00:00 +0000): Strata stores dates in SQLite as text with four-digit years"))
    #expect(refusal(Date(timeIntervalSince1970: 1e15)).hasPrefix("parameter 1 is the date after the year range"))
    // The first and last days of the years the text holds are stored as they are.
    let first = Date(timeIntervalSince1970: -62_135_596_800)
    #expect(try stored(first).text == "0001-01-01 00:00:00.000")
    #expect(try roundTrip(first) == first)
    #expect(try stored(Date(timeIntervalSince1970: 253_402_300_799.999)).text == "9999-12-31 23:59:59.999")
    // A negative zero keeps its sign as a parameter; in a REAL column it could not (below).
    #expect(try roundTrip(-0.0)?.sign == .minus)
  }

  @Test func dateDecodingAcceptsSQLiteFormats() throws {
    func decode(_ text: String) throws -> Date? {
      try database.read { db in try sql("SELECT \(text)", as: Date?.self).fetchOne(db) ?? nil }
    }
    let base = Date(timeIntervalSince1970: 1_735_787_045)
    #expect(try decode("2025-01-02 03:04:05") == base)
    #expect(try decode("2025-01-02T03:04:05.5") == base.addingTimeInterval(0.5))
    let nanoseconds = try #require(try decode("2025-01-02 03:04:05.123456789Z"))
    #expect(abs(nanoseconds.timeIntervalSince(base) - 0.123456789) < 1e-6)
    #expect(try decode("2025-01-02 05:04:05+02:00") == base)
    #expect(try decode("2025-01-02 03:04") == base.addingTimeInterval(-5))
    #expect(try decode("2025-01-02") == Date(timeIntervalSince1970: 1_735_776_000))
    let now = try database.read { db in try sql("SELECT CURRENT_TIMESTAMP", as: Date.self).fetchOne(db) }
    #expect(abs(try #require(now).timeIntervalSinceNow) < 5)
    for invalid in ["2025-13-01", "2025-02-30", "2025-01-02 24:00", "yesterday", "2025-01-02 03:04:05.", ""] {
      #expect(throws: QueryDecodingError.self) { try decode(invalid) }
    }
  }

  @Test func boolIsIntegerZeroOrOne() throws {
    #expect(try stored(true) == ("integer", "1"))
    #expect(try stored(false) == ("integer", "0"))
    #expect(try roundTrip(true) == true)
    #expect(try database.read { try sql("SELECT 7", as: Bool.self).fetchOne($0) } == true)
  }

  @Test func integersAndFloatingPoint() throws {
    #expect(try stored(Int.max) == ("integer", "9223372036854775807"))
    #expect(try stored(Int8(-3)) == ("integer", "-3"))
    #expect(try stored(UInt32.max) == ("integer", "4294967295"))
    #expect(try roundTrip(Int16.min) == Int16.min)
    #expect(try stored(2.5) == ("real", "2.5"))
    #expect(try roundTrip(Float(1.25)) == 1.25)
    #expect(try database.read { try sql("SELECT 3", as: Double.self).fetchOne($0) } == 3)
  }

  @Test func textAndBlobs() throws {
    #expect(try stored("héllo") == ("text", "héllo"))
    #expect(try roundTrip("") == "")
    #expect(try roundTrip("emoji 👩‍👩‍👧 and \u{0}nul") == "emoji 👩‍👩‍👧 and \u{0}nul")
    #expect(try stored(Data([0xDE, 0xAD])).type == "blob")
    #expect(try roundTrip(Data([0xDE, 0xAD])) == Data([0xDE, 0xAD]))
    #expect(try roundTrip([UInt8]([1, 2, 3])) == [1, 2, 3])
    #expect(try stored(Data()).type == "blob")
    #expect(try roundTrip(Data()) == Data())
  }

  @Test func optionalIsNull() throws {
    #expect(try stored(Int?.none) == ("null", nil))
    #expect(try roundTrip(String?.none) == .some(nil))
    #expect(try roundTrip(Int?.some(4)) == 4)
  }

  @Test func rawRepresentableEnumsAreTheirRawValues() throws {
    #expect(try stored(Priority.high) == ("integer", "3"))
    #expect(try stored(Status.archived) == ("text", "archived"))
    #expect(try roundTrip(Status.archived) == .archived)
  }

  @Test func alternateRepresentations() throws {
    #expect(try stored(JSONRepresentation(queryOutput: ["b": 2, "a": 1])) == ("text", #"{"a":1,"b":2}"#))
    #expect(try roundTrip(JSONRepresentation(queryOutput: ["x", "y"])) == ["x", "y"])
    let date = Date(timeIntervalSince1970: 1_735_787_045.9)
    #expect(try stored(Date.UnixTimeRepresentation(queryOutput: date)) == ("integer", "1735787045"))
    #expect(try roundTrip(Date.UnixTimeRepresentation(queryOutput: date)) == Date(timeIntervalSince1970: 1_735_787_045))
    let uuid = UUID()
    #expect(try stored(UUID.BytesRepresentation(queryOutput: uuid)).type == "blob")
    #expect(try roundTrip(UUID.BytesRepresentation(queryOutput: uuid)) == uuid)
  }

  @Test func everyColumnOfATableRoundTrips() throws {
    let database = try catalogDatabase()
    let photo = Data((0..<256).map { UInt8($0) })
    let item = Item(
      id: 7, categoryID: nil, title: "Tricky 'quotes' \"here\"", notes: "note", price: -0.25,
      quantity: -4, isActive: false, createdAt: referenceDate, dueDate: referenceDate.addingTimeInterval(86_400),
      priority: .medium, status: .archived, tags: ["a", "b,c"], photo: photo, externalID: UUID())
    try database.write { try Item.insert { item }.execute($0) }
    let read = try #require(try database.read { try Item.find(7).fetchOne($0) })
    #expect(read.title == item.title)
    #expect(read.notes == item.notes)
    #expect(read.price == item.price)
    #expect(read.quantity == item.quantity)
    #expect(read.isActive == item.isActive)
    #expect(read.createdAt == item.createdAt)
    #expect(read.dueDate == item.dueDate)
    #expect(read.priority == item.priority)
    #expect(read.status == item.status)
    #expect(read.tags == item.tags)
    #expect(read.photo == item.photo)
    #expect(read.externalID == item.externalID)
    let raw = try database.read { db in
      try sql(
        "SELECT typeof(isActive), typeof(createdAt), typeof(tags), typeof(photo), typeof(externalID), externalID FROM items WHERE id = 7",
        as: (String, String, String, String, String, String).self
      ).fetchOne(db)
    }
    #expect(raw?.0 == "integer")
    #expect(raw?.1 == "text")
    #expect(raw?.2 == "text")
    #expect(raw?.3 == "blob")
    #expect(raw?.4 == "text")
    #expect(raw?.5 == item.externalID?.uuidString.lowercased())
  }
}

/// `StoredValue` reads a value of any storage class, and binds it back as it was.
@Suite struct StoredValueTests {
  @Test func readsAndBindsEveryStorageClass() throws {
    let database = try openDatabase(.inMemory)
    let values = try database.read { db in
      try sql("SELECT 1, 2.5, 'x', x'00ff', NULL", as: (StoredValue, StoredValue, StoredValue, StoredValue, StoredValue).self).fetchOne(db)
    }
    let read = try #require(values)
    #expect([read.0, read.1, read.2, read.3, read.4] == [.integer(1), .real(2.5), .text("x"), .blob([0, 255]), .null])
    let roundTrip = try database.read { db in
      try sql("SELECT typeof(\(StoredValue.real(2.5))) || ',' || typeof(\(StoredValue.blob([1])))", as: String.self).fetchOne(db)
    }
    #expect(roundTrip == "real,blob")
  }
}
