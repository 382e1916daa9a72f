import Foundation
import GRDB
import GRDBSQLite
import StrataCore

extension Database {
  /// Registers the SQL functions Strata's schemas rely on: `uuid()`, which returns a random
  /// (version 4) UUID as lowercase text.
  ///
  /// ``openDatabase(_:pooled:attaching:configuration:functions:)`` calls it for every connection; call it from
  /// `Configuration.prepareDatabase` when you create connections yourself. SQLite on Linux has
  /// no `uuid()` of its own, and the generated `CREATE TABLE` statements use it as the default of
  /// UUID primary keys.
  public func registerStrataFunctions() throws {
    guard let connection = sqliteConnection else {
      throw StrataError("the database connection is closed")
    }
    let code = sqlite3_create_function_v2(
      connection, "uuid", 0, SQLITE_UTF8, nil, randomUUIDFunction, nil, nil, nil)
    guard code == SQLITE_OK else {
      throw StrataError("could not register uuid(): \(String(cString: sqlite3_errstr(code)))")
    }
  }
}

/// `uuid()`: formats 16 random bytes, with the version 4 and variant bits set, straight into
/// the result. Not marked deterministic, so SQLite calls it for every row.
private let randomUUIDFunction:
  @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, _ in
    var generator = SystemRandomNumberGenerator()
    var bytes = (generator.next() as UInt64, generator.next() as UInt64)
    let uuid = withUnsafeMutableBytes(of: &bytes) { raw -> UUID in
      raw[6] = raw[6] & 0x0F | 0x40
      raw[8] = raw[8] & 0x3F | 0x80
      return UUID(uuid: raw.load(as: uuid_t.self))
    }
    UUIDText.withText(uuid) { text in
      sqlite3_result_text(
        context, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count),
        transientDestructor)
    }
  }
