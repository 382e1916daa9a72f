#if PostgreSQL
import Foundation
import PostgresNIO
import StrataCore

/// The names under which the builder's statements are prepared on PostgreSQL connections: a
/// database's own set (each ``PostgreSQLDatabase`` has one) of the process's names, one per
/// statement shape.
///
/// A statement sent unnamed is parsed and planned by the server on every run; one sent under a
/// name is parsed once per connection and then only bound and run (postgres-nio prepares it on
/// a connection the first time the name is used there, and remembers that it did). The name
/// stands for the SQL *and* the types of its values: the server fixes a parameter's type when
/// it prepares the statement and reads the binary value sent later as that type, so the same
/// text with an integer where a double was (or a NULL, whose type the server infers) needs a
/// statement of its own.
///
/// A name means one statement in the whole process, so that databases whose connections come
/// from one client never give one name two statements. Names are never taken back from a
/// connection (postgres-nio has no way to forget one), so a set uses at most ``limit`` of them,
/// and a statement met after that runs unnamed: the bound is per database, so that one
/// database's statements (a module's, a test's) never use up another's. A name the server
/// refused (its statement failed to prepare, or its plan no longer gives the rows it described)
/// is retired from the set that met the refusal, and its statement gets a new name there,
/// because postgres-nio keeps a preparation's failure for that name on that connection (see
/// ``retires(_:)``); other databases go on with the name they have.
final class NamedStatements: @unchecked Sendable {
  /// The set of connections wrapped by hand (``PostgreSQLConnection/init(_:logger:namedStatements:)``):
  /// one for all of them, since any number of wrappers may share one connection.
  static let shared = NamedStatements()

  /// How many names a set uses; so, how many statements a connection of its database may keep.
  /// A prepared statement holds 20–50 KB of the server's memory for its connection (measured on
  /// PostgreSQL 15: a lookup by key about 20 KB, a 3 KB insert about 50 KB), so 256, pgJDBC's
  /// default number of statements kept per connection, bounds it at a few megabytes per
  /// connection.
  let limit: Int
  /// Longer SQL is sent unnamed: such statements (a many-row insert) are rarely repeated with
  /// the same shape, and parsing is a small part of their time.
  static let longestNamedSQL = 4_096

  struct Key: Hashable {
    var sql: String
    var types: [PostgresDataType]
  }

  /// A name given out: its number and the type that carries the number to postgres-nio.
  struct Name {
    let number: Int
    let slot: any StatementSlot.Type
  }

  private let lock = NSLock()
  /// The set's names, by statement.
  private var names: [Key: Name] = [:]
  /// How many names the set has used, retired ones included.
  private var used = 0

  /// The process's current name of each statement, and every name's SQL, by number less one
  /// (kept after the name is retired, since a connection may still hold the statement).
  private static let process = NSLock()
  nonisolated(unsafe) private static var current: [Key: Name] = [:]
  nonisolated(unsafe) private static var issued: [String] = []

  init(limit: Int = 256) {
    self.limit = limit
  }

  /// The name to run `sql` with these bindings under, or nil to run it unnamed.
  func name(for sql: String, _ bindings: [QueryBinding]) -> Name? {
    guard sql.utf8.count <= Self.longestNamedSQL else { return nil }
    let key = Key(sql: sql, types: bindings.map { PostgreSQLValue($0).psqlType })
    lock.lock()
    defer { lock.unlock() }
    if let name = names[key] { return name }
    guard used < limit else { return nil }
    used += 1
    let name = Self.currentName(of: key)
    names[key] = name
    return name
  }

  /// The process's name for `key`, given now if it has none.
  private static func currentName(of key: Key) -> Name {
    process.lock()
    defer { process.unlock() }
    if let name = current[key] { return name }
    issued.append(key.sql)
    let name = Name(number: issued.count, slot: slotType(issued.count))
    current[key] = name
    return name
  }

  /// The SQL of the statement named with `number`.
  static func sql(of number: Int) -> String {
    process.lock()
    defer { process.unlock() }
    return issued[number - 1]
  }

  /// Gives up `name`, which a connection of this set's database holds as failed or as planned
  /// for rows the statement no longer returns: its statement gets a new name the next time it
  /// runs here, and in databases that meet it for the first time.
  func retire(_ name: Name) {
    lock.lock()
    defer { lock.unlock() }
    guard let index = names.firstIndex(where: { $0.value.number == name.number }) else { return }
    let key = names[index].key
    names.remove(at: index)
    Self.process.lock()
    defer { Self.process.unlock() }
    if Self.current[key]?.number == name.number { Self.current[key] = nil }
  }

  /// Whether a server error met by a statement run under a name calls for retiring the name.
  /// postgres-nio keeps a failed preparation for the name on that connection and returns its
  /// error for every later run there, so any error that may have come from preparing retires it:
  /// a syntax or access error, or a missing table or column, which a migration may add later
  /// (class `42`); a transaction an earlier error aborted (`25P02`); a statement the connection
  /// no longer holds (`26000`) or a plan whose rows changed type under a migration (`0A000`);
  /// a cancel, a lack of resources or an internal error. Only the errors of running the statement
  /// with its values keep the name: a value the column cannot take (class `22`), a constraint
  /// (`23`), a serialization failure or deadlock (`40`), one a function raised (`P0`), a lock not
  /// available (`55P03`), a write in a read-only transaction (`25006`). A name retired needlessly
  /// costs one of the ``limit`` names (and every connection prepares the statement again); one
  /// kept wrongly would fail its statement on that connection for good.
  static func retires(_ error: PostgreSQLError) -> Bool {
    guard error.kind == .server, let state = error.sqlState else { return false }
    let ranWithItsValues = ["22", "23", "40", "P0"].contains(state.prefix(2)) || state == "55P03" || state == "25006"
    return !ranWithItsValues
  }

  /// Whether a statement that ran alone may be sent once more, unnamed, after the error: the name
  /// is stale, or the error is one of preparing (class `42`) that postgres-nio may have kept from
  /// before a migration created the table or column. Other errors are the statement's own, and
  /// a write that failed for them is not sent twice.
  static func mayRunUnnamed(_ error: PostgreSQLError) -> Bool {
    isStale(error) || error.kind == .server && error.sqlState?.hasPrefix("42") == true
  }

  /// Whether the error is the name's alone, and the same statement under a new name may run:
  /// the connection lost it (`26000`), or its plan's rows changed type (`0A000`).
  static func isStale(_ error: PostgreSQLError) -> Bool {
    error.kind == .server && (error.sqlState == "26000" || error.sqlState == "0A000")
  }
}

/// One run of a named statement, in the form postgres-nio's prepared-statement API takes: it
/// reads a statement's name and SQL from its *type* (static properties, meant for statements
/// written in the code), so the type says which statement it is, by its number spelled as a type
/// (`Slot`). A task-local value read by those properties would do, but binding one around an
/// `async` call is where Swift's task allocator has broken (and its back-deployed
/// `withValue` on macOS 14 does); a type is a plain value.
struct NamedStatement<Slot: StatementSlot>: PostgresPreparedStatement {
  typealias Row = PostgresRow

  static var name: String { "strata_\(Slot.number)" }
  static var sql: String { NamedStatements.sql(of: Slot.number) }

  let bindings: PostgresBindings

  func makeBindings() -> PostgresBindings { bindings }

  func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// A positive number spelled as a type, bit by bit: `SlotOne<SlotZero<SlotEnd>>` is 0b101.
protocol StatementSlot {
  static var number: Int { get }
}

/// The leading 1 bit.
enum SlotEnd: StatementSlot {
  static var number: Int { 1 }
}

/// `Rest` with a 0 bit after it.
enum SlotZero<Rest: StatementSlot>: StatementSlot {
  static var number: Int { Rest.number << 1 }
}

/// `Rest` with a 1 bit after it.
enum SlotOne<Rest: StatementSlot>: StatementSlot {
  static var number: Int { Rest.number << 1 | 1 }
}

/// The type that spells `number` (at least 1).
func slotType(_ number: Int) -> any StatementSlot.Type {
  guard number > 1 else { return SlotEnd.self }
  func appending<Rest: StatementSlot>(_ rest: Rest.Type) -> any StatementSlot.Type {
    number & 1 == 0 ? SlotZero<Rest>.self : SlotOne<Rest>.self
  }
  return appending(slotType(number >> 1))
}
#endif
