import Foundation
import GRDB
import GRDBSQLite
import StrataCore

/// Tells SQLite to copy text and blob arguments, which are only borrowed for the call.
@usableFromInline
nonisolated(unsafe) let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Binds a batch's values to a prepared statement with `sqlite3_bind_*`.
@usableFromInline
enum StatementBinder {
  /// Resets the statement and binds the batch's values in order. Every parameter gets a value
  /// (the count is checked), so old bindings need no clearing.
  @inlinable
  static func bind(_ batch: QueryBatch, to statement: Statement) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    var index: Int32 = 1
    for part in batch.bindings {
      try bind(part, to: handle, from: &index, sql: batch.sql)
    }
    try checkCount(index - 1, of: handle, sql: batch.sql)
  }

  /// Resets the statement and binds `bindings` in order.
  @inlinable
  static func bind(_ bindings: [QueryBinding], sql: String, to statement: Statement) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    var index: Int32 = 1
    try bind(bindings[...], to: handle, from: &index, sql: sql)
    try checkCount(index - 1, of: handle, sql: sql)
  }

  @inlinable
  static func bind(
    _ bindings: ArraySlice<QueryBinding>, to handle: OpaquePointer, from index: inout Int32, sql: String
  ) throws {
    for binding in bindings {
      switch binding {
      case .real(let number) where number.isNaN:
        throw SQLiteStorage.refuse(binding, at: index, sql: sql, because: SQLiteStorage.problem(binding: binding) ?? "")
      case .date(let date) where !DateText.isStorable(date):
        throw SQLiteStorage.refuse(binding, at: index, sql: sql, because: SQLiteStorage.problem(binding: binding) ?? "")
      default:
        break
      }
      let code = bind(binding, to: handle, at: index)
      if code != SQLITE_OK {
        throw StrataError.binding(code: code, index: index, sql: sql)
      }
      index += 1
    }
  }

  @inlinable
  static func checkCount(_ given: Int32, of handle: OpaquePointer, sql: String) throws {
    let expected = sqlite3_bind_parameter_count(handle)
    if expected != given {
      throw StrataError.parameterCount(expected: expected, given: given, sql: sql)
    }
  }

  @inlinable
  static func bind(_ binding: QueryBinding, to handle: OpaquePointer, at index: Int32) -> Int32 {
    switch binding {
    case .null:
      return sqlite3_bind_null(handle, index)
    case .integer(let value):
      return sqlite3_bind_int64(handle, index, value)
    case .real(let value):
      return sqlite3_bind_double(handle, index, value)
    case .bool(let value):
      return sqlite3_bind_int64(handle, index, value ? 1 : 0)
    case .text(var text), .json(var text):
      return text.withUTF8 { bytes in
        bindText(UnsafeRawBufferPointer(bytes), to: handle, at: index)
      }
    case .blob(let bytes):
      return bytes.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress, bytes.count > 0 else {
          return sqlite3_bind_zeroblob(handle, index, 0)
        }
        guard let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
        return sqlite3_bind_blob(handle, index, base, count, transientDestructor)
      }
    case .uuid(let uuid):
      return UUIDText.withText(uuid) { bindText($0, to: handle, at: index) }
    case .date(let date):
      return DateText.withText(date) { bindText($0, to: handle, at: index) }
    }
  }

  @inlinable
  static func bindText(_ bytes: UnsafeRawBufferPointer, to handle: OpaquePointer, at index: Int32)
    -> Int32
  {
    guard let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else {
      return sqlite3_bind_text(handle, index, "", 0, transientDestructor)
    }
    return sqlite3_bind_text(handle, index, base, count, transientDestructor)
  }
}
