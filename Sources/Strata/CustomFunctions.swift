import Foundation
import GRDB
import GRDBSQLite
import StrataCore

extension Database {
  /// Registers SQL functions written in Swift (`ScalarFunction`, `AggregateFunction`) on
  /// this connection. ``openDatabase(_:pooled:configuration:functions:)`` registers its
  /// `functions` on every connection it opens; call this from `Configuration.prepareDatabase`
  /// when you create connections yourself.
  public func add(functions: [any CustomFunction]) throws {
    guard let connection = sqliteConnection else {
      throw StrataError("the database connection is closed")
    }
    for function in functions {
      // The box lives as long as SQLite keeps the function, which releases it.
      let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
      let flags = SQLITE_UTF8 | (function.isDeterministic ? SQLITE_DETERMINISTIC : 0)
      let code = switch function.implementation {
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

/// A registered function, reached from SQLite's callbacks through `sqlite3_user_data`.
private final class FunctionBox {
  let function: any CustomFunction

  init(_ function: any CustomFunction) {
    self.function = function
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
      }, function: function.name)
  }
}

private let releaseFunctionBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
  if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
}

private let callScalar: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, count, values in
  let box = FunctionBox.of(context)
  guard case .scalar(let body) = box.function.implementation else { return }
  do {
    setResult(try body(box.arguments(count, values)), of: context)
  } catch {
    sqlite3_result_error(context, "\(error)", -1)
  }
}

/// The state of one group, kept in SQLite's aggregate context as a retained pointer.
private func aggregateState(_ context: OpaquePointer?, create: Bool) -> AggregateState? {
  guard let slot = sqlite3_aggregate_context(context, create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0)?
    .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
  else { return nil }
  if let state = slot.pointee { return Unmanaged<AnyObject>.fromOpaque(state).takeUnretainedValue() as? AggregateState }
  guard create, case .aggregate(let makeState) = FunctionBox.of(context).function.implementation else { return nil }
  let state = makeState()
  slot.pointee = Unmanaged.passRetained(state as AnyObject).toOpaque()
  return state
}

private let stepAggregate: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
  context, count, values in
  do {
    try aggregateState(context, create: true)?.step(FunctionBox.of(context).arguments(count, values))
  } catch {
    sqlite3_result_error(context, "\(error)", -1)
  }
}

private let finishAggregate: @convention(c) (OpaquePointer?) -> Void = { context in
  // A group without rows has no state yet: its result is the body's for no rows.
  let existing = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
  if let state = existing?.pointee {
    let object = Unmanaged<AnyObject>.fromOpaque(state)
    if let state = object.takeUnretainedValue() as? AggregateState { setResult(state.result(), of: context) }
    object.release()
    existing?.pointee = nil
  } else if case .aggregate(let makeState) = FunctionBox.of(context).function.implementation {
    setResult(makeState().result(), of: context)
  }
}

private func setResult(_ binding: QueryBinding, of context: OpaquePointer?) {
  switch binding {
  case .null: sqlite3_result_null(context)
  case .integer(let value): sqlite3_result_int64(context, value)
  case .real(let value): sqlite3_result_double(context, value)
  case .text(let text):
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
