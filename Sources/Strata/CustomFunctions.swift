import Foundation
import GRDB
import GRDBSQLite
import StrataCore

extension Database {
  /// Registers SQL functions written in Swift (`ScalarFunction`, `AggregateFunction`) on
  /// this connection. ``openDatabase(_:pooled:attaching:configuration:functions:)`` registers its
  /// `functions` on every connection it opens; call this from `Configuration.prepareDatabase`
  /// when you create connections yourself.
  public func add(functions: [any CustomFunction]) throws {
    guard let connection = sqliteConnection else {
      throw StrataError("the database connection is closed")
    }
    for function in functions {
      // The box lives as long as SQLite keeps the function, which releases it (also when the
      // registration fails).
      let functionBox = FunctionBox(function)
      let box = Unmanaged.passRetained(functionBox).toOpaque()
      let flags = SQLITE_UTF8 | (function.isDeterministic ? SQLITE_DETERMINISTIC : 0)
      let code = switch functionBox.implementation {
      case .scalar:
        sqlite3_create_function_v2(
          connection, function.name, Int32(function.argumentCount), flags, box, callScalar, nil, nil, releaseFunctionBox)
      case .aggregate:
        sqlite3_create_function_v2(
          connection, function.name, Int32(function.argumentCount), flags, box, nil, stepAggregate, finishAggregate,
          releaseFunctionBox)
      }
      guard code == SQLITE_OK else {
        throw StrataError("could not register the SQL function \(function.name)(): \(String(cString: sqlite3_errstr(code)))")
      }
    }
  }
}

/// A registered function, reached from SQLite's callbacks through `sqlite3_user_data`. The
/// implementation is read once, here, rather than on every call.
private final class FunctionBox {
  let name: String
  let implementation: CustomFunctionImplementation

  init(_ function: any CustomFunction) {
    name = function.name
    implementation = function.implementation
  }

  static func of(_ context: OpaquePointer?) -> FunctionBox {
    Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
  }

  /// The call's arguments, borrowed for the call.
  func arguments(_ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) -> FunctionArguments {
    FunctionArguments(
      (0..<Int(count)).map { index in
        let value = values![index]
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
          return .text(UnsafeRawBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value))))
        case SQLITE_BLOB:
          return .blob(UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: Int(sqlite3_value_bytes(value))))
        default: return .null
        }
      }, function: name)
  }
}

private let releaseFunctionBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
  if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
}

private let callScalar: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, count, values in
  let box = FunctionBox.of(context)
  guard case .scalar(let body) = box.implementation else { return }
  do {
    setResult(try body(box.arguments(count, values)), of: context)
  } catch {
    setError(error, of: context)
  }
}

/// The state of one group, kept in SQLite's aggregate context as a retained pointer to it.
private final class GroupState {
  let state: any AggregateState

  init(_ state: any AggregateState) {
    self.state = state
  }
}

/// The group's slot in SQLite's aggregate context: nil before the first row (and for a group
/// without rows, when `create` is false).
private func stateSlot(_ context: OpaquePointer?, create: Bool) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
  sqlite3_aggregate_context(context, create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0)?
    .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

private func makeState(_ context: OpaquePointer?) -> (any AggregateState)? {
  guard case .aggregate(let makeState) = FunctionBox.of(context).implementation else { return nil }
  return makeState()
}

private let stepAggregate: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, count, values in
  guard let slot = stateSlot(context, create: true) else { return sqlite3_result_error_nomem(context) }
  let group: GroupState
  if let existing = slot.pointee {
    group = Unmanaged<GroupState>.fromOpaque(existing).takeUnretainedValue()
  } else {
    guard let state = makeState(context) else { return }
    group = GroupState(state)
    slot.pointee = Unmanaged.passRetained(group).toOpaque()
  }
  do {
    try group.state.step(FunctionBox.of(context).arguments(count, values))
  } catch {
    setError(error, of: context)
  }
}

private let finishAggregate: @convention(c) (OpaquePointer?) -> Void = { context in
  // A group without rows has no state yet: its result is the body's for no rows.
  if let slot = stateSlot(context, create: false), let pointer = slot.pointee {
    let group = Unmanaged<GroupState>.fromOpaque(pointer)
    defer {
      group.release()
      slot.pointee = nil
    }
    finish(group.takeUnretainedValue().state, of: context)
  } else if let state = makeState(context) {
    finish(state, of: context)
  }
}

private func finish(_ state: any AggregateState, of context: OpaquePointer?) {
  do {
    setResult(try state.result(), of: context)
  } catch {
    setError(error, of: context)
  }
}

/// A Swift error as the statement's error: SQLite reports its message, which is the error's
/// `errorDescription` when it gives one (what users write for messages), else its description.
private func setError(_ error: any Error, of context: OpaquePointer?) {
  let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
  sqlite3_result_error(context, message, -1)
}

private func setResult(_ binding: QueryBinding, of context: OpaquePointer?) {
  switch binding {
  case .null: sqlite3_result_null(context)
  case .integer(let value): sqlite3_result_int64(context, value)
  case .real(let value): sqlite3_result_double(context, value)
  case .bool(let value): sqlite3_result_int64(context, value ? 1 : 0)
  case .text(let text), .json(let text):
    var text = text
    text.withUTF8 { bytes in
      sqlite3_result_text(
        context, UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), transientDestructor)
    }
  case .blob(let bytes):
    bytes.withUnsafeBytes { raw in
      sqlite3_result_blob(context, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transientDestructor)
    }
  case .uuid(let uuid):
    UUIDText.withText(uuid) { text in
      sqlite3_result_text(
        context, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count), transientDestructor)
    }
  case .date(let date):
    setResult(.text(DateText.format(date)), of: context)
  }
}
