import Foundation
import GRDBSQLite
import StrataSQL

/// A private in-memory SQLite database, used to replay migrations and to check the DDL the
/// models ask for. It uses the C API directly: the tool stays small and builds fast.
final class SQLiteConnection {
  private var handle: OpaquePointer?
  /// Whether ``SchemaOnlyReplay`` wrote tables or indexes into the schema that have no storage.
  var holdsSchemaOnly = false

  /// A scratch in-memory database with `uuid()` and a stand-in for each of the app's
  /// `functions`, which returns NULL: enough for migrations that call them to run.
  init(functions: [AppFunction] = []) throws {
    guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
    else {
      throw SQLiteError(message: "cannot open an in-memory SQLite database")
    }
    sqlite3_create_function_v2(handle, "uuid", 0, SQLITE_UTF8, nil, randomUUID, nil, nil, nil)
    for function in functions {
      let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
      if function.isAggregate {
        sqlite3_create_function_v2(handle, function.name, -1, flags, nil, nil, ignoreStep, returnNull, nil)
      } else {
        sqlite3_create_function_v2(handle, function.name, -1, flags, nil, returnNullFor, nil, nil, nil)
      }
    }
    try execute("PRAGMA foreign_keys = ON")
  }

  /// The database file at `path`, opened read-only: importing its schema never writes to it.
  init(readingFile path: String) throws {
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
      throw SQLiteError(message: message)
    }
    // Opening is lazy: reading the schema is what finds a file that is not a database.
    _ = try rows("SELECT count(*) FROM sqlite_schema")
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements.
  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw SQLiteError(message: text)
    }
  }

  /// The database file at `path`, opened to read and write, with `uuid()`; the file must exist.
  init(openingFile path: String) throws {
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
      throw SQLiteError(message: message)
    }
    sqlite3_busy_timeout(handle, 5_000)
    sqlite3_create_function_v2(handle, "uuid", 0, SQLITE_UTF8, nil, randomUUID, nil, nil, nil)
    try execute("PRAGMA foreign_keys = ON")
  }

  /// Runs a script one statement at a time, the way SQLite's own parser splits it, so that a
  /// failure points at its statement. `inspect` sees each statement before it runs and may
  /// refuse it by throwing; `row` sees each row a statement returns, each column as text or nil.
  ///
  /// - Throws: ``ScriptFailure`` with the byte offset of the failing statement (or of the error
  ///   within it, when SQLite reports one), or what `inspect` throws.
  func runScript(
    _ script: String, inspect: (_ statement: String, _ offset: Int) throws -> Void,
    row: ([String?]) -> Void = { _ in }
  ) throws {
    let bytes = Array(script.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      try base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
        var offset = 0
        while offset < bytes.count {
          var statement: OpaquePointer?
          var tail: UnsafePointer<CChar>?
          let start = SQLLexer.endOfTrivia(in: bytes, from: offset)
          if sqlite3_prepare_v2(handle, text + offset, Int32(bytes.count - offset), &statement, &tail) != SQLITE_OK {
            let errorOffset = Int(sqlite3_error_offset(handle))
            throw ScriptFailure(
              message: String(cString: sqlite3_errmsg(handle)),
              offset: errorOffset >= 0 ? offset + errorOffset : start)
          }
          guard let statement else { return }
          defer { sqlite3_finalize(statement) }
          let end = tail.map { $0 - text } ?? bytes.count
          try inspect(String(decoding: bytes[start..<end], as: UTF8.self), start)
          var code = sqlite3_step(statement)
          while code == SQLITE_ROW {
            row((0..<sqlite3_column_count(statement)).map { sqlite3_column_text(statement, $0).map { String(cString: $0) } })
            code = sqlite3_step(statement)
          }
          guard code == SQLITE_DONE else {
            throw ScriptFailure(message: String(cString: sqlite3_errmsg(handle)), offset: start)
          }
          offset = end
        }
      }
    }
  }

  /// The database's bytes, as SQLite writes them to a file.
  func serialize() throws -> [UInt8] {
    var size: sqlite3_int64 = 0
    guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else {
      // A database that nothing has written to has no pages, and SQLite no bytes for it.
      if try rows("PRAGMA page_count").first?["page_count"] == "0" { return [] }
      throw SQLiteError(message: "cannot serialize the scratch database")
    }
    defer { sqlite3_free(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
  }

  /// Replaces the database with `bytes` from ``serialize()``; the connection's functions stay.
  func restore(_ bytes: [UInt8]) throws {
    guard let copy = sqlite3_malloc64(sqlite3_uint64(max(bytes.count, 1)))?.assumingMemoryBound(to: UInt8.self)
    else { throw SQLiteError(message: "out of memory") }
    copy.initialize(from: bytes, count: bytes.count)
    // SQLite frees the copy when the connection closes, and grows it as the database does.
    let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
    let code = sqlite3_deserialize(handle, "main", copy, sqlite3_int64(bytes.count), sqlite3_int64(bytes.count), flags)
    guard code == SQLITE_OK else {
      throw SQLiteError(message: "cannot read a saved scratch database (SQLite error \(code))")
    }
    // Reading the schema is what finds bytes that are not a database.
    _ = try rows("SELECT count(*) FROM sqlite_schema")
  }

  /// Grows the database by about `bytes` of free pages; returns its size in pages.
  func reserveFreePages(bytes: Int) throws -> Int {
    try execute(
      "CREATE TABLE strata_reserve(b); INSERT INTO strata_reserve VALUES (zeroblob(\(bytes))); DROP TABLE strata_reserve")
    return Int(try rows("PRAGMA page_count").first?["page_count"] ?? "") ?? 0
  }

  /// One object of the schema (a table, an index, a view, a trigger), as `sqlite_schema` lists it.
  struct SchemaObject {
    var type: String
    /// Its row in `sqlite_schema`.
    var rowid: String?
    /// Whether it has pages of its own; a table with none has no rows (see ``SchemaOnlyReplay``).
    var hasStorage: Bool
    var sql: String?
  }

  /// The objects of the schema, by name folded as SQLite compares names.
  func schemaObjects() throws -> [String: SchemaObject] {
    var objects: [String: SchemaObject] = [:]
    for row in try rows("SELECT rowid, type, name, rootpage, sql FROM sqlite_schema") {
      guard let name = row["name"], let type = row["type"] else { continue }
      objects[SQLName.folded(name)] = SchemaObject(
        type: type, rowid: row["rowid"], hasStorage: (row.integer("rootpage") ?? 0) > 0, sql: row["sql"])
    }
    return objects
  }

  /// The SQL functions this connection knows, lowercased; empty where SQLite does not list them.
  func functionNames() throws -> Set<String> {
    Set(((try? rows("SELECT DISTINCT name FROM pragma_function_list")) ?? []).compactMap { $0["name"]?.lowercased() })
  }

  /// Runs `body` in a transaction, rolled back if it throws.
  func transaction(_ body: () throws -> Void) throws {
    try execute("BEGIN")
    do {
      try body()
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// The rows of a query, each column as text (or nil for NULL), read by column name.
  func rows(_ sql: String, _ arguments: [String] = []) throws -> [SQLiteRow] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
      throw SQLiteError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    for (index, argument) in arguments.enumerated() {
      sqlite3_bind_text(statement, Int32(index + 1), argument, -1, transient)
    }
    let count = sqlite3_column_count(statement)
    var names: [String: Int] = [:]
    for column in 0..<count {
      names[String(cString: sqlite3_column_name(statement, column))] = Int(column)
    }
    var rows: [SQLiteRow] = []
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else {
        throw SQLiteError(message: String(cString: sqlite3_errmsg(handle)))
      }
      rows.append(
        SQLiteRow(
          names: names,
          values: (0..<count).map { column in sqlite3_column_text(statement, column).map { String(cString: $0) } }))
    }
    return rows
  }
}

/// A statement of a script that SQLite refused, and where in the script it is.
struct ScriptFailure: Error {
  let message: String
  /// The byte offset in the script.
  let offset: Int
}

/// A row of a query's result: each column's text, or nil for NULL, by the column's name.
struct SQLiteRow: Hashable {
  fileprivate let names: [String: Int]
  fileprivate let values: [String?]

  /// The column called `name`; nil for NULL or a name the query does not have.
  subscript(_ name: String) -> String? {
    names[name].flatMap { values[$0] }
  }

  /// The column called `name` as an integer; nil for NULL, a missing name, or text that is not
  /// one.
  func integer(_ name: String) -> Int? {
    self[name].flatMap { Int($0) }
  }

  /// Whether the column called `name` holds a true flag: a pragma's 1.
  func flag(_ name: String) -> Bool {
    integer(name).map { $0 != 0 } ?? false
  }

  /// The query's column names, in order.
  var columnNames: [String] {
    names.sorted { $0.value < $1.value }.map(\.key)
  }
}

struct SQLiteError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// `uuid()`, for migrations that insert rows relying on the default of a UUID key, and for
/// ``SQLShell``.
private let randomUUID: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, _, _ in
  let text = UUID().uuidString.lowercased()
  sqlite3_result_text(context, text, -1, transient)
}

/// The stand-in of an app's scalar function: NULL for any arguments.
private let returnNullFor: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, _, _ in sqlite3_result_null(context)
}

/// The stand-in of an app's aggregate: ignores its rows, and is NULL.
private let ignoreStep: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { _, _, _ in }
private let returnNull: @convention(c) (OpaquePointer?) -> Void = { context in sqlite3_result_null(context) }
